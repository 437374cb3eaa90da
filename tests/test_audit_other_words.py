"""The audit's rules on claims said in other words (issue 35, item 2): units, times and
ordinals written one way, sentences back to front or opening on their time, denials in
other forms, departures, diets, one-value facts with numbers inside, and the look-alikes
each of them must leave alone. Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest

from memscope.meaning.claims import claim, conflict, update_relation
from memscope.meaning.diets import consumed, ruled_out
from memscope.meaning.normal import normalise, zh_number


@pytest.mark.parametrize(("text", "written"), [
    ("Bea is 171 centimetres tall.", "Bea is 171 cm tall."),
    ("The train leaves at 7.45 pm.", "The train leaves at 19:45."),
    ("The train leaves at 6 a.m. sharp.", "The train leaves at 06:00 sharp."),
    ("Omar sits on the fifth floor.", "Omar sits on the 5th floor."),
    ("Dutch is Femke's mother tongue.", "Femke's mother tongue is Dutch."),
    ("Last year Femke joined Philips.", "Femke joined Philips last year."),
    # a place first is moved after the claim, as a time is (its name is then the owner)
    ("In Utrecht Femke cycles everywhere.", "Femke cycles everywhere in Utrecht."),
    ("王芳的月薪是八千元。", "王芳的月薪是8000元。"),
    ("王芳一个人住。", "王芳一个人住。"),
])
def test_one_way_of_writing(text: str, written: str) -> None:
    assert normalise(text) == written


def test_chinese_numbers_below_ten_thousand() -> None:
    assert [zh_number(n) for n in ("八千", "三千二百", "十二", "两", "九十九", "千")] == [
        8000, 3200, 12, 2, 99, 1000]
    assert zh_number("八万x") is None


@pytest.mark.parametrize(("a", "b"), [
    ("Bea is 171 cm tall.", "Bea is 165 centimetres tall."),
    ("Dutch is Femke's mother tongue.", "Femke's native language is German."),
    ("Omar's desk is on the 2nd floor of the Leeds office.",
     "Omar's desk is on the ninth floor of the Leeds office."),
    ("Femke's hip surgery is scheduled for 3 March.", "Femke's hip surgery is booked for 12 May."),
    ("Piet has never flown.", "Piet flies to Lyon every fortnight."),
    ("Piet has never taught.", "Piet teaches maths at a school in Delft."),
    ("Piet lacks a driving licence.", "Piet's driving licence is in his wallet."),
    ("Piet lives without a car.", "Piet's car is parked outside."),
    ("Piet doesn't speak a word of Greek.", "Piet is fluent in Greek."),
    ("Piet is a non-smoker.", "Piet smokes a cigar after dinner."),
    ("Piet has been sober for years.", "Piet drinks wine every night."),
    ("Piet is an accountant at Deloitte.", "Piet left Deloitte in March and is travelling."),
    ("Piet is retired.", "Piet works part-time at the library."),
    ("Femke leads a team of four designers.", "Femke's team has nine designers."),
    ("Femke is vegetarian.", "Femke eats chorizo with every breakfast."),
    ("Femke is a strict vegan.", "Femke has a glass of milk before bed."),
    ("Femke doesn't drink alcohol.", "Femke orders a negroni every Friday."),
    ("王芳滴酒不沾。", "王芳每天晚上都喝红酒。"),
    ("王芳没有孩子。", "王芳的女儿在上小学。"),
    ("王芳已经退休了。", "王芳在医院全职上班。"),
    ("Piet quit smoking years ago.", "Piet rolls a cigarette after every meeting."),
    ("Piet has no pets.", "Piet walks his spaniel along the canal."),
    ("王芳不再养狗了。", "王芳每天晚上遛她的金毛。"),
    ("Femke is allergic to sesame.", "Femke eats sesame bagels for breakfast."),
    ("王芳对芒果过敏。", "王芳每天都吃芒果干。"),
])
def test_conflicts_said_in_other_words(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("The train leaves at 18:05.", "The train leaves at 6:05 pm."),
    ("Piet left Rotterdam for a week in June.", "Piet lives in Rotterdam."),
    ("Piet is retired.", "Piet is unemployed."),
    ("Femke is vegan on weekdays.", "Femke eats cheese on Saturdays."),
    ("Femke is vegan.", "Femke drinks an oat-milk latte every morning."),
    ("Femke doesn't eat pork.", "Femke loves a lamb curry."),
    ("Femke is teetotal.", "Femke drinks alcohol-free beer with friends."),
    ("Femke used to drink wine.", "Femke is sober."),
    ("Femke is teetotal.", "Femke drinks green tea every morning."),
    ("Femke is a non-drinker.", "Femke drinks oat milk with breakfast."),
    ("Femke moved to Leiden in 2015.", "Femke moved to a larger house in Leiden in 2021."),
    ("The Atlas auth service is due on 4 May.", "The Atlas billing service is due on 9 June."),
    ("王芳住在杭州。", "王芳住在杭州滨江区。"),
    ("王芳在华为工作。", "王芳在华为的上海研究所上班。"),
    ("王芳在重庆工作。", "王芳住在成都。"),
    ("王芳不吃猪肉。", "王芳很爱吃烤鸭。"),
    ("Piet has no dogs.", "Piet feeds his neighbour's cat."),
    ("Piet's old dog died last spring.", "Piet has no pets."),
    ("Femke is allergic to cats.", "Femke loves cats."),
    ("Femke is allergic to sesame.", "Femke avoids sesame at restaurants."),
])
def test_look_alikes_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_diets_name_what_they_rule_out_and_what_is_had() -> None:
    assert ruled_out("Femke is a strict vegan.") == {"meat", "fish", "dairy", "egg"}
    assert ruled_out("Femke doesn't eat fish.") == {"fish"}
    # pork is a kind of its own (its dishes): not eating it rules out bacon, not beef
    assert ruled_out("Femke doesn't eat pork.") == {"pork"}
    assert "pork" in consumed("Femke has bacon every morning.")
    assert "pork" not in consumed("Femke has a beef burger every Friday.")
    assert ruled_out("Femke loves the vegan café on the corner.") == frozenset()
    assert consumed("Femke had a burger for lunch, as she does most days.") == {"meat"}
    assert consumed("Femke had a burger for lunch yesterday.") == frozenset()
    assert consumed("Femke cooks steak for her guests.") == frozenset()


def test_an_update_that_resolves_a_conflict_stays_on_one_thing() -> None:
    assert update_relation(claim("Piet is retired."),
                           claim("Piet works full-time at the port.")) is True
    assert update_relation(claim("In May Femke moved from Delft to Leiden."),
                           claim("Femke lives in Leiden.")) is True

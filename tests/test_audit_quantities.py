"""The audit's quantities (issue 35): one person's amount for one thing, height, the date of
one event and the weekday of a weekly slot, said in other words — each with the look-alikes
it must leave alone. Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memscope.graph.analysis import analyse
from memscope.meaning.audit import semantic_findings
from memscope.meaning.claims import claim, conflict, update_relation
from memscope.meaning.quantities import measures
from memscope.records.dataset import from_feed_pages

NOW = datetime(2026, 6, 1, tzinfo=UTC)
#: an age is compared with a year of birth as of today (memscope.meaning.quantities)
THIS_YEAR = datetime.now(UTC).year


QUANTITY_CONFLICTS = [
    # an amount for one thing, in other words, periods and units
    ("Greta pays £700 a month in rent.", "Greta's monthly rent comes to 900 pounds."),
    ("Bruno's salary is €52,000 a year.", "Bruno earns 4,000 euros a month."),
    ("Bruno earns $90k annually.", "Bruno's yearly salary is 120 thousand dollars."),
    ("Greta pays £30 a month for her climbing membership.",
     "Greta's climbing membership costs £45 a month."),
    ("王静的月薪是一万五。", "王静每个月工资八千元。"),
    # a height, metric against imperial
    ("Bruno is 1.78 m tall.", "Bruno is six foot three."),
    ("Greta is 5 ft 1.", "Greta stands 175 cm tall."),
    # the date of one event
    ("Bruno's flight to Lima leaves on 3 March.", "Bruno flies to Lima on March 19."),
    ("Greta's wedding is on 12 May 2027.", "Greta is getting married on 2027-08-21."),
    ("Bruno's eye appointment is on 09/04.", "Bruno's eye appointment is on the 23rd of April."),
    # the weekday of a weekly slot
    ("Greta's weekly book club meeting is on Wednesdays.",
     "Greta's weekly book club meeting is every Friday."),
    ("Bruno swims on Mondays and Thursdays.", "Bruno only swims on Sundays."),
]


QUANTITY_LOOK_ALIKES = [
    # the same amount in other words, and amounts of other things or people
    ("Greta pays £700 a month in rent.", "Greta's rent is £8,400 a year."),
    ("Bruno earns around €50k a year.", "Bruno's base salary is €48,500."),
    ("Greta pays £30 a month for her climbing membership.",
     "Greta pays £11 a month for her music streaming."),
    ("Greta pays £700 a month in rent.", "Greta's brother pays £500 a month in rent."),
    ("Bruno earns £40,000 a year.", "Bruno earns an extra £200 a month from tutoring."),
    ("Bruno earns £40,000 a year.", "Bruno earns over £35,000 a year."),
    ("Greta paid £600 a month in rent when she lived in York.",
     "Greta pays £700 a month in rent."),
    # heights of other things or people, and one height twice
    ("Bruno is 1.78 m tall.", "Bruno's son is 1.20 m tall."),
    ("Bruno is 1.78 m tall.", "Bruno's hedge is 1.20 m tall."),
    ("Bruno is 1.80 m tall.", "Bruno is five foot eleven."),
    # dates of other events, or of someone else's
    ("Bruno's flight to Lima leaves on 3 March.", "Bruno's flight to Quito leaves on 19 March."),
    ("Greta is going to Pia's wedding on 5 June.", "Greta is getting married on 2 October."),
    ("Bruno's eye appointment is on 9 April.", "Bruno's dentist appointment is on 23 April."),
    ("Greta's birthday is on 3 May.", "Greta's mum's birthday is on 9 June."),
    ("Greta's wedding is on 12 May.", "Greta's brother's wedding is on 9 June."),
    # other weekly slots, and a slot with another day besides
    ("Greta's piano lesson is on Tuesdays.", "Greta's French lesson is only on Thursdays."),
    ("Bruno swims on Mondays.", "Bruno goes to the gym on Thursdays."),
    ("Bruno swims on Mondays.", "Bruno also swims on Thursdays."),
]


def test_what_is_read() -> None:
    (rent,) = measures("Greta's monthly rent comes to 900 pounds.")
    assert (rent.kind, rent.key, rent.value) == ("money", "GBP rent", 10_800.0)
    (height,) = measures("Greta is 5 ft 1.")
    assert (height.kind, height.value) == ("height", 154.9)
    (day,) = measures("Bruno's eye appointment is on 09/04.")
    assert (day.kind, day.key, day.value) == ("date", "appointment eye", (None, 4, 9))
    (salary,) = measures("王静每个月工资一万二。", zh=True)
    assert (salary.key, salary.value) == ("CNY salary", 144_000.0)
    assert measures("Greta likes long walks.") == ()


def _pair_findings(a: str, b: str) -> list[str]:
    docs = [{"id": f"d{n}", "title": f"Note {n}", "createdAt": "2026-01-0{n}T00:00:00Z",
             "memories": [{"id": f"m{n}", "memory": text, "isLatest": True,
                           "createdAt": f"2026-01-0{n}T00:00:00Z"}]}
            for n, text in enumerate((a, b), start=1)]
    analysis = analyse(from_feed_pages([{"documents": docs}]), NOW)
    return [f.kind for f in semantic_findings(analysis)]


def test_the_audit_compares_texts_that_share_only_the_measured_thing() -> None:
    # no claim word in common: the height and the salary are what brings them together
    assert _pair_findings("Bruno is 1.78 m tall.", "Bruno is six foot three.") == [
        "suspected_contradiction"]
    assert _pair_findings("Bruno earns $90k annually.",
                          "Bruno's yearly salary is 120 thousand dollars.") == [
        "suspected_contradiction"]
    assert _pair_findings("Bruno earns $90k annually.",
                          "Bruno's yearly salary is 90 thousand dollars.") == []


LIFE_CONFLICTS = [
    # what a life has had or not, said in the past too
    ("Greta never went to university.", "Greta studied physics at Uppsala."),
    ("Greta has no degree.", "Greta has a bachelor's degree in nursing."),
    ("Bruno has never had surgery.", "Bruno had his gallbladder removed last spring."),
    ("Bruno has never broken a bone.", "Bruno fractured his ankle playing rugby."),
    ("Bruno has no chronic medical conditions.", "Bruno lives with epilepsy."),
    ("Greta is colour-blind.", "Greta has normal colour vision."),
    ("Greta is left-handed.", "Greta is right-handed."),
    ("Greta is expecting her first baby.", "Greta has two young daughters."),
    # an ability denied, and a time it was used
    ("Bruno can't swim.", "Bruno swam across the lake last summer."),
    ("Bruno has no idea how to drive.", "Bruno drove us home from the party."),
    # an aside between commas, and "because", leave the sentence's own tense alone
    ("Greta, who grew up in Oslo, is fluent in Norwegian.",
     "Greta has no idea how to speak Norwegian."),
    ("Bruno is fluent in Greek because he grew up in Patras.", "Bruno can't speak Greek."),
]


LIFE_LOOK_ALIKES = [
    ("Greta never went to university.", "Greta's daughter studied law at Leeds."),
    ("Greta never went to university.", "Greta hopes to do a degree in history one day."),
    ("Greta has a degree in chemistry.", "Greta never went to art school."),
    ("Bruno has never had surgery.", "Bruno had a check-up in May."),
    ("Bruno has never broken a bone.", "Bruno sprained his wrist skiing."),
    ("Bruno has never broken a bone.", "Bruno's son broke his arm at school."),
    ("Bruno has no chronic medical conditions.", "Bruno had the flu last week."),
    ("Bruno has asthma.", "Bruno's sister has no chronic medical conditions."),
    ("Greta is left-handed.", "Greta plays tennis right-handed."),
    ("Greta is expecting her first baby.", "Greta teaches a class of thirty children."),
    ("Bruno no longer drives.", "Bruno drove to work for ten years."),
    ("Bruno can't drive.", "Bruno's brother drove him to Leeds."),
]


def test_an_aside_is_read_apart() -> None:
    main, aside = claim("Greta, who grew up in Oslo, is fluent in Norwegian.").clauses
    assert (main.text, main.past) == ("Greta is fluent in Norwegian", False)
    assert (aside.owner, aside.past) == (("greta",), True)
    assert _pair_findings("Greta never went to university.",
                          "Greta studied physics at Uppsala.") == ["suspected_contradiction"]


KIND_CONFLICTS = [
    # a denial of a kind meets one of its kind
    ("Bruno doesn't own any property.", "Bruno owns a holiday cottage in Wales."),
    ("Greta never takes planes.", "Greta flies to Madrid twice a year."),
    ("Greta is on a strict no-sugar diet.", "Greta eats a brownie with every coffee."),
    ("Bruno has never used Linux.", "Bruno runs Debian on his laptop."),
    ("Bruno doesn't speak any Romance language.", "Bruno teaches Italian at night school."),
    ("Greta is allergic to shellfish.", "Greta orders mussels every Friday."),
    ("Greta has never owned a bicycle.", "Greta rides her own bike to the lab."),
    # a Chinese province holds its cities
    ("王静从没去过云南。", "王静去年在昆明住了两个月。"),
]


KIND_LOOK_ALIKES = [
    ("Bruno doesn't own any property.", "Bruno rents a flat in Cardiff."),
    ("Greta never takes planes.", "Greta's brother flies to Madrid every month."),
    ("Bruno has never used Linux.", "Bruno's team runs Debian servers."),
    ("Bruno doesn't speak any Romance language.", "Bruno wants to learn Italian."),
    ("Greta is allergic to shellfish.", "Greta sells mussels at the market."),
    # a province and a city in it are one home, said finer; a city elsewhere is not in it
    ("王静住在云南。", "王静住在昆明。"),
    ("王静从没去过云南。", "王静去年在杭州住了两个月。"),
    ("王静从没出过国。", "王静去年在拉萨住了两个月。"),
    # an indefinite employer names none
    ("王静在一家外企工作。", "王静在微软上班。"),
]


@pytest.mark.parametrize(("a", "b"), [
    ("王静用的是iPhone 13。", "王静最近换了一部小米手机。"),
    ("王静在一家外企做销售。", "王静辞职后开了一家花店。"),
    ("王静在工地当包工头。", "王静退休了，在老家养鸡。"),
    ("高原喜欢吃辣。", "高原得了胃病，不能再吃辣了。"),
])
def test_chinese_updates_on_one_topic_stay_on_it(a: str, b: str) -> None:
    assert update_relation(claim(a), claim(b)) is True


PERSON_CONFLICTS = [
    # one partner or manager, named in other words
    ("Greta's partner is Lars.", "Greta's partner's name is Henrik."),
    ("Greta's manager is a man called Olof Berg.", "Greta reports to Anna Lind."),
    ("Greta's wife is called Ines.", "Greta says her wife, Marta, teaches yoga."),
    # kin said with a word before the role
    ("Bruno's twin daughters are six.", "Bruno has no children."),
]


MORE_CONFLICTS = [
    # a workout's hour against "never before", or against the hour one gets up
    ("Bruno goes swimming every morning at 6 am.", "Bruno never works out before noon."),
    ("Greta goes to the gym every day at 6:30.", "Greta never gets up before nine."),
    # an age by its decade against a year of birth
    (f"Greta was born in {THIS_YEAR - 25}.", "Greta is in her late forties."),
    # a continent is its countries
    ("Bruno has never travelled to Africa.", "Bruno spent a month in Nairobi."),
    ("Greta has never set foot outside Europe.", "Greta lived in Lima for a year."),
    # a kin who died, and time spent with them now
    ("Greta's father passed away in 2019.", "Greta calls her father every evening."),
    # hearsay around the claim, and a diet kept for years
    ("Greta is an only child.", "According to Greta, her older sister Pia is a nurse."),
    ("Bruno has been vegetarian for ten years.", "Bruno's favourite dinner is a lamb kebab."),
    ("Bruno is teetotal.", "Bruno's usual order is a pint of Guinness."),
    ("Greta is married to Lars.", "Greta is not seeing anyone at the moment."),
]


MORE_LOOK_ALIKES = [
    ("Bruno goes swimming every morning at 6 am.", "Bruno never works out after 8 pm."),
    (f"Greta was born in {THIS_YEAR - 45}.", "Greta is in her forties."),
    ("Bruno has never travelled to Africa.", "Bruno spent a month in Lisbon."),
    ("Greta's father passed away in 2019.", "Greta calls her mother every evening."),
    ("Greta's father passed away in 2019.", "Greta visits her father's grave every Sunday."),
    ("Bruno runs the team meeting at 9 every Monday.", "Bruno never works out before noon."),
    ("Greta is married to Lars.", "Greta isn't seeing anyone today; she is off sick."),
    ("Greta's father passed away in 2019.", "Greta visited her father every week until 2018."),
    ("Greta is an only child.", "According to Greta, her cousin Pia is a nurse."),
    ("Bruno was vegetarian for ten years.", "Bruno's favourite dinner is a lamb kebab."),
]


PERSON_LOOK_ALIKES = [
    ("Greta's partner is Lars.", "Greta's partner's name is Lars."),
    ("Greta's wife is called Ines.", "Greta says her wife, Ines, teaches yoga."),
    ("Greta's wife is called Ines.", "Greta's sister Marta teaches yoga."),
]


@pytest.mark.parametrize(("a", "b"), QUANTITY_CONFLICTS + LIFE_CONFLICTS + KIND_CONFLICTS
                         + PERSON_CONFLICTS + MORE_CONFLICTS)
def test_one_thing_said_twice_is_a_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), QUANTITY_CONFLICTS)
def test_a_quantity_conflict_is_of_a_number_or_a_time(a: str, b: str) -> None:
    found = conflict(claim(a), claim(b))
    assert found is not None and found.what in ("number", "time", "date")


@pytest.mark.parametrize(("a", "b"), QUANTITY_LOOK_ALIKES + LIFE_LOOK_ALIKES + KIND_LOOK_ALIKES
                         + PERSON_LOOK_ALIKES + MORE_LOOK_ALIKES)
def test_look_alikes_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None

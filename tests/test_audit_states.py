"""States a life has one of at a time (issue 35): how many children against how many sons
or daughters, a home owned or rented, the school one is at, one's own boss or another's,
and work done all at home or all at the office. Each rule with the look-alikes it must
leave alone; English and Chinese. Sentences here are this file's own, not the labelled
sets'."""

from __future__ import annotations

import pytest

from memscope.meaning.claims import claim, conflict

CONFLICTS = [
    # more sons or daughters than children
    ("Ilse has only one child.", "Ilse has two daughters, both at university."),
    ("Ilse has three sons.", "Ilse has just two children."),
    ("方圆有三个儿子。", "方圆只有两个孩子。"),
    ("方圆只有一个女儿。", "方圆有两个儿子，都在上小学。"),
    # a home owned or rented
    ("Ilse owns her flat in Graz outright.", "Ilse rents the flat she lives in from her aunt."),
    ("Ilse is a homeowner.", "Ilse pays rent every month for her studio."),
    ("方圆住的是自己买的房子。", "方圆一直租房住。"),
    # the school one is at now
    ("Ilse is in high school.", "Ilse is an undergraduate studying chemistry."),
    ("方圆在读高中。", "方圆还是一名初中生。"),
    ("方圆在读大学。", "方圆刚上初二。"),
    # one's own boss, or another's
    ("Ilse is self-employed.", "Ilse works at Siemens as a planner."),
    ("方圆是个体户。", "方圆在华为上班。"),
    # all of the work at home, or all at the office
    ("Ilse works entirely from home.", "Ilse takes the tram to work."),
    ("Ilse never works remotely.", "Ilse works from home on Fridays."),
    ("Ilse commutes to the office every day.", "Ilse is fully remote."),
]

LOOK_ALIKES = [
    # fewer sons or daughters than children; or other kin, or another's
    ("Ilse has three children.", "Ilse has two daughters."),
    ("Ilse has two children.", "Ilse's sister has three sons."),
    ("方圆有三个孩子。", "方圆有两个女儿。"),
    ("方圆有一个女儿。", "方圆有一个儿子。"),
    ("方圆没有两个孩子。", "方圆有三个儿子。"),
    # two homes, or a garage
    ("Ilse owns her flat in Graz.", "Ilse rents a garage for her motorbike."),
    ("Ilse owns a holiday house in Spain.", "Ilse rents a flat in London."),
    # school then, or someone else's
    ("方圆在读大学。", "方圆上高中的时候住校。"),
    ("方圆在读大学。", "方圆的妹妹还在读初中。"),
    ("Ilse is an undergraduate.", "Ilse's son is in high school."),
    # a trade, not an employer
    ("Ilse is self-employed.", "Ilse works as a designer."),
    ("Ilse is self-employed.", "Ilse used to work at Siemens."),
    # some days at home and some at the office
    ("Ilse works from home on Mondays.", "Ilse takes the bus to work on Tuesdays."),
    ("Ilse works from home.", "Ilse's husband commutes to Linz daily."),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_two_states_of_one_life_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_states_that_may_both_hold_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None

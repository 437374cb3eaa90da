"""A Graphiti graph written into a Kuzu file with graphiti-core's own classes.

No LLM and no embedder: nodes and edges are made by hand and saved with their ``save``
(embeddings written directly as small fixed lists). What the graph holds, group by group:

``household`` (Alice's)
    - episode ``ep-intro`` (one message) produced four facts — an episode shared by many;
    - ``fact-engineer`` "Alice works at Acme as an engineer", contradicted: invalidated
      and expired when ``fact-lead`` "… as a team lead" (from ``ep-promotion``) arrived —
      the same relation between the same two entities: a two-version chain;
    - ``fact-lead`` also came from ``ep-review``: one fact, two sources;
    - ``fact-bike`` retired (expired) with no newer fact;
    - ``fact-jazz`` retired, and two newer ``LIKES`` facts between the same two entities
      (``fact-jazz-cool``, ``fact-jazz-bebop``): ambiguous, no link;
    - ``fact-porto`` true until 1 February (its own end, never expired), and
      ``fact-porto-again`` true again from 1 May: a gap, no link;
    - ``fact-sister`` with only the learnt clock (no ``valid_at``); ``fact-tea`` with
      only ``valid_at`` besides the learnt time;
``team`` (a second group): one episode, one fact.

Each episode mentions (``MENTIONS``, an ``EpisodicEdge``) the entities of the facts drawn
from it, as Graphiti records them: ``bike`` and ``Ana`` only in ``ep-intro``, ``green tea``
only in ``ep-misc`` — what removing those episodes takes along.
"""

from __future__ import annotations

import gc
import os
import warnings
from datetime import UTC, datetime
from pathlib import Path

from async_support import run_async

os.environ["GRAPHITI_TELEMETRY_ENABLED"] = "false"  # before graphiti-core is imported

from graphiti_core.driver.kuzu_driver import KuzuDriver
from graphiti_core.edges import EntityEdge, EpisodicEdge
from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode

HOME, TEAM = "household", "team"
ENGINEER = "Alice works at Acme as an engineer"
LEAD = "Alice works at Acme as a team lead"
EMB = [0.1, 0.2, 0.3]


def at(month: int, day: int, hour: int = 9) -> datetime:
    """A time of 2026, UTC."""
    return datetime(2026, month, day, hour, tzinfo=UTC)


def _episode(uuid: str, group: str, name: str, content: str, when: datetime
             ) -> EpisodicNode:
    return EpisodicNode(uuid=uuid, name=name, group_id=group, source=EpisodeType.message,
                        source_description="chat with Alice", content=content, valid_at=when,
                        created_at=when)


def _entity(uuid: str, group: str, name: str, summary: str = "") -> EntityNode:
    return EntityNode(uuid=uuid, name=name, group_id=group, summary=summary,
                      name_embedding=EMB, created_at=at(1, 1))


def _fact(uuid: str, group: str, source: str, target: str, name: str, fact: str,
          episodes: list[str], created: datetime, *, valid_at: datetime | None = None,
          invalid_at: datetime | None = None, expired_at: datetime | None = None
          ) -> EntityEdge:
    return EntityEdge(uuid=uuid, group_id=group, source_node_uuid=source,
                      target_node_uuid=target, name=name, fact=fact, episodes=episodes,
                      fact_embedding=EMB, created_at=created, valid_at=valid_at,
                      invalid_at=invalid_at, expired_at=expired_at)


def nodes_and_edges() -> tuple[list[EpisodicNode], list[EntityNode], list[EntityEdge]]:
    """The graph of the module's docstring."""
    episodes = [
        _episode("ep-intro", HOME, "Alice introduces herself",
                 "Alice: I live in Porto, I work at Acme as an engineer, I own a bike and I "
                 "love jazz. My sister is Ana.", at(3, 1)),
        _episode("ep-promotion", HOME, "Alice's promotion",
                 "Alice: I was promoted to team lead at Acme today.", at(6, 1)),
        _episode("ep-review", HOME, "Yearly review",
                 "Alice's review says she leads the Acme platform team.", at(6, 20)),
        _episode("ep-misc", HOME, "Odds and ends",
                 "Alice: sold the bike. Cool jazz only now; bebop is too much. Back in "
                 "Porto since May. I drink green tea.", at(7, 2)),
        _episode("ep-team", TEAM, "Team stand-up", "Bob: the release moves to Friday.",
                 at(4, 10)),
    ]
    entities = [
        _entity("alice", HOME, "Alice", "Alice is a team lead at Acme who lives in Porto."),
        _entity("acme", HOME, "Acme", "Acme is the company Alice works for."),
        _entity("porto", HOME, "Porto"),
        _entity("bike", HOME, "bike"),
        _entity("jazz", HOME, "jazz"),
        _entity("ana", HOME, "Ana", "Ana is Alice's sister."),
        _entity("tea", HOME, "green tea"),
        _entity("bob", TEAM, "Bob", "Bob runs the release."),
        _entity("release", TEAM, "release"),
    ]
    edges = [
        _fact("fact-engineer", HOME, "alice", "acme", "WORKS_AT", ENGINEER, ["ep-intro"],
              at(3, 1), valid_at=at(1, 15), invalid_at=at(6, 1), expired_at=at(6, 1, 10)),
        _fact("fact-lead", HOME, "alice", "acme", "WORKS_AT", LEAD,
              ["ep-promotion", "ep-review"], at(6, 1, 10), valid_at=at(6, 1)),
        _fact("fact-bike", HOME, "alice", "bike", "OWNS", "Alice owns a bike", ["ep-intro"],
              at(3, 1), valid_at=at(3, 1), expired_at=at(7, 2)),
        _fact("fact-jazz", HOME, "alice", "jazz", "LIKES", "Alice loves jazz", ["ep-intro"],
              at(3, 1), valid_at=at(3, 1), invalid_at=at(7, 2), expired_at=at(7, 2, 10)),
        _fact("fact-jazz-cool", HOME, "alice", "jazz", "LIKES", "Alice likes only cool jazz",
              ["ep-misc"], at(7, 2, 10), valid_at=at(7, 2)),
        _fact("fact-jazz-bebop", HOME, "alice", "jazz", "LIKES",
              "Alice finds bebop too much", ["ep-misc"], at(7, 2, 10), valid_at=at(7, 2)),
        _fact("fact-porto", HOME, "alice", "porto", "LIVES_IN", "Alice lives in Porto",
              ["ep-intro"], at(3, 1), valid_at=at(1, 1), invalid_at=at(2, 1)),
        _fact("fact-porto-again", HOME, "alice", "porto", "LIVES_IN",
              "Alice lives in Porto again", ["ep-misc"], at(7, 2), valid_at=at(5, 1)),
        _fact("fact-sister", HOME, "alice", "ana", "SISTER_OF", "Ana is Alice's sister",
              ["ep-intro"], at(3, 1)),
        _fact("fact-tea", HOME, "alice", "tea", "DRINKS", "Alice drinks green tea",
              ["ep-misc"], at(7, 2), valid_at=at(7, 2)),
        _fact("fact-release", TEAM, "bob", "release", "SCHEDULED", "The release is on Friday",
              ["ep-team"], at(4, 10), valid_at=at(4, 10)),
    ]
    for ep in episodes:
        ep.entity_edges = [e.uuid for e in edges if ep.uuid in e.episodes]
    return episodes, entities, edges


async def _save(path: Path) -> KuzuDriver:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        driver = KuzuDriver(str(path))
    episodes, entities, edges = nodes_and_edges()
    for node in [*episodes, *entities]:
        await node.save(driver)
    for edge in edges:
        await edge.save(driver)
    for mention in mentions(episodes, edges):
        await mention.save(driver)
    return driver


def mentions(episodes: list[EpisodicNode], edges: list[EntityEdge]) -> list[EpisodicEdge]:
    """Each episode's ``MENTIONS`` of the entities of its facts."""
    out: list[EpisodicEdge] = []
    for ep in episodes:
        ends = dict.fromkeys(end for e in edges if ep.uuid in e.episodes
                             for end in (e.source_node_uuid, e.target_node_uuid))
        out += [EpisodicEdge(uuid=f"{ep.uuid}>{end}", group_id=ep.group_id,
                             source_node_uuid=ep.uuid, target_node_uuid=end,
                             created_at=ep.created_at) for end in ends]
    return out


def _close(driver: KuzuDriver) -> None:
    """Close the file once the loop that ran its queries is gone (a query result freed
    after its database closed crashes the process)."""
    gc.collect()
    driver.client.close()
    driver.db.close()


def write_graph(path: Path) -> Path:
    """The graph of the module's docstring saved in a new Kuzu file at ``path``."""
    _close(run_async(_save(path)))
    return path

"""Deleting a fact or an episode from a Graphiti graph, as graphiti-core itself does.

A fact is deleted with graphiti-core's ``EntityEdge.delete``. An episode goes the way
``Graphiti.remove_episode`` (graphiti-core 0.31.2) takes it, through the driver alone:

- the facts drawn from this episode alone are deleted; a fact also drawn from other
  episodes stays, with this episode taken off its list;
- an entity that only this episode mentions is deleted, and every fact it is part of
  goes with it (on Kuzu graphiti-core would leave half of such a fact behind, so those
  facts are deleted first);
- the episode itself is deleted (with its mentions).

Graphiti then asks its language model to rewrite the summaries of the entities the episode
mentioned; nothing here calls a language model or an embedder, so those summaries stay as
they were. :func:`plan_episode` is the dry run the forget dialog shows (it only reads).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphiti_core.driver.driver import GraphDriver
    from graphiti_core.edges import EntityEdge
    from graphiti_core.nodes import EpisodicNode

#: how many episodes mention an entity (graphiti-core's own query in remove_episode)
_MENTIONS = ("MATCH (e:Episodic)-[:MENTIONS]->(n:Entity {uuid: $uuid}) "
             "RETURN count(*) AS episode_count")
#: Kuzu's facts that end at an entity (graphiti-core's get_by_node_uuid reads only those
#: that start there, on Kuzu)
_KUZU_INTO = ("MATCH (n:Entity)-[:RELATES_TO]->(e:RelatesToNode_)-[:RELATES_TO]->"
              "(m:Entity {uuid: $uuid}) RETURN e.uuid AS uuid")


@dataclass(frozen=True)
class Removal:
    """What deleting one episode takes from the graph (read, nothing deleted yet)."""

    episode: str
    #: facts deleted: drawn from this episode alone, or part of an entity that goes
    facts: tuple[str, ...] = ()
    #: facts that stay, drawn from other episodes too
    kept: tuple[str, ...] = ()
    #: entities only this episode mentions, deleted with it: ``(uuid, name)``
    entities: tuple[tuple[str, str], ...] = ()


@dataclass
class _Plan:
    removal: Removal
    node: EpisodicNode
    update: list[EntityEdge] = field(default_factory=list)


async def _touching(driver: GraphDriver, node_uuid: str) -> list[str]:
    """The uuids of every fact an entity is part of, either end."""
    from graphiti_core.driver.driver import GraphProvider
    from graphiti_core.edges import EntityEdge

    found = [e.uuid for e in await EntityEdge.get_by_node_uuid(driver, node_uuid)]
    if driver.provider == GraphProvider.KUZU:
        rows, _, _ = await driver.execute_query(_KUZU_INTO, uuid=node_uuid, routing_="r")
        found += [str(r["uuid"]) for r in rows]
    return list(dict.fromkeys(found))


async def _plan(driver: GraphDriver, episode_uuid: str) -> _Plan:
    from graphiti_core.edges import EntityEdge
    from graphiti_core.nodes import EpisodicNode
    from graphiti_core.search.search_utils import get_mentioned_nodes

    node = await EpisodicNode.get_by_uuid(driver, episode_uuid)
    edges = await EntityEdge.get_by_uuids(driver, list(node.entity_edges or []))
    alone: list[str] = []
    update: list[EntityEdge] = []
    for edge in edges:
        if node.uuid not in edge.episodes:
            continue
        rest = [u for u in edge.episodes if u != node.uuid]
        if rest:
            edge.episodes = rest
            update.append(edge)
        else:
            alone.append(edge.uuid)
    lone: list[tuple[str, str]] = []
    for entity in await get_mentioned_nodes(driver, [node]):
        rows, _, _ = await driver.execute_query(_MENTIONS, uuid=entity.uuid, routing_="r")
        if any(r["episode_count"] == 1 for r in rows):
            lone.append((entity.uuid, entity.name or entity.uuid))
    facts = list(alone)
    for entity_uuid, _ in lone:
        facts += await _touching(driver, entity_uuid)
    facts = list(dict.fromkeys(facts))
    update = [e for e in update if e.uuid not in facts]
    removal = Removal(node.uuid, tuple(facts), tuple(e.uuid for e in update), tuple(lone))
    return _Plan(removal, node, update)


async def plan_episode(driver: GraphDriver, episode_uuid: str) -> Removal:
    """What deleting ``episode_uuid`` would take (reads only)."""
    return (await _plan(driver, episode_uuid)).removal


async def delete_episode(driver: GraphDriver, episode_uuid: str) -> Removal:
    """Delete an episode as ``Graphiti.remove_episode`` does (see the module), without
    rewriting entity summaries; returns what went."""
    from graphiti_core.edges import EntityEdge
    from graphiti_core.nodes import EntityNode

    plan = await _plan(driver, episode_uuid)
    for edge in plan.update:  # the facts that stay lose this episode from their list
        await edge.load_fact_embedding(driver)
        await edge.save(driver)
    if plan.removal.facts:
        await EntityEdge.delete_by_uuids(driver, list(plan.removal.facts))
    if plan.removal.entities:
        await EntityNode.delete_by_uuids(driver, [u for u, _ in plan.removal.entities])
    await plan.node.delete(driver)
    return plan.removal


async def delete_fact(driver: GraphDriver, fact_uuid: str) -> str:
    """Delete one fact with graphiti-core's ``EntityEdge.delete`` (its entities and
    episodes stay)."""
    from graphiti_core.edges import EntityEdge

    edge = await EntityEdge.get_by_uuid(driver, fact_uuid)
    await edge.delete(driver)
    return edge.uuid


__all__ = ["Removal", "delete_episode", "delete_fact", "plan_episode"]

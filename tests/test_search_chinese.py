"""Chinese words in local Ask's words half (issue 35, item 6): a run of Chinese characters
is split into words by jieba at index time (the in-process Chinese index of
memscope/store/search.py) and at query time, so a Chinese question scores by BM25 on the
words it shares with a memory, as an English one does — where the stored index, which
reads a whole run as one word, found nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_search_vectors import read

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.sources.file_ask import AskIndex
from memscope.store import search as store_search
from memscope.store.store import Store

ROOT = Path(__file__).resolve().parent.parent

FACTS = {
    "home": "张三住在北京，离公司不远。",
    "nurse": "李四在协和医院当护士，经常上夜班。",
    "tea": "张三每天下午喝一杯乌龙茶。",
    "trip": "王芳下个月去东京旅行。",
    "db": "Atlas 项目使用 PostgreSQL 作为主数据库。",
    "en": "Maya flies to Lisbon on Friday.",
}


@pytest.fixture
def store(tmp_path) -> Store:
    store = Store.create(tmp_path / "zh.db")
    store.load_records([{"id": f"doc_{key}", "containerTags": ["zh" if key != "en" else "en"],
                         "memoryEntries": [{"id": key, "memory": text}]}
                        for key, text in FACTS.items()])
    return store


def words_ranked(store: Store, question: str, **kwargs) -> tuple[list[str], str]:
    found = store_search.search(read(store), question, mode=store_search.WORDS, **kwargs)
    return [h["id"] for h in found["hits"] if h["kind"] == "memory"], found["method"]


def test_the_stored_index_alone_cannot_see_a_word_inside_a_chinese_run(store):
    """What the Chinese index is for: FTS5's unicode61 reads 李四在协和医院当护士 as one
    token, so 医院 (a word in the middle of it) matches nothing there."""
    conn = read(store)
    rows = conn.execute("SELECT ref FROM search_index WHERE search_index MATCH '医院'")
    assert rows.fetchall() == []


@pytest.mark.parametrize(("question", "answer"), [
    ("谁在医院工作？", "nurse"),          # 医院: inside the run 李四在协和医院当护士
    ("张三下午喝什么茶？", "tea"),        # 张 三 (a name jieba does not know) and 下午
    ("王芳要去哪里旅行？", "trip"),
    ("Atlas 用的是什么数据库？", "db"),   # a Latin name and a Chinese word together
])
def test_a_chinese_question_scores_on_its_words(store, question, answer):
    ids, method = words_ranked(store, question)
    assert method == store_search.FTS5  # BM25, not the LIKE fallback
    assert ids and ids[0] == answer, ids


def test_a_question_in_chinese_words_ranks_its_answer_first_in_the_hybrid(store):
    hits = [h for h in store.search("张三住在哪个城市？")["hits"] if h["kind"] == "memory"]
    assert hits[0]["id"] == "home"


def test_chinese_hits_keep_to_their_space(store):
    assert words_ranked(store, "谁在医院工作？", container_tag="zh")[0][0] == "nurse"
    assert words_ranked(store, "谁在医院工作？", container_tag="en")[0] == []


def test_common_chinese_words_are_not_searched():
    assert store_search.key_words("他们住在哪里？") == ["住"]
    assert store_search.key_words("是什么？") == ["是", "什么"]  # nothing else: all of them


def test_the_chinese_index_follows_writes(store):
    assert words_ranked(store, "羽毛球")[0] == []
    store.add_document("赵六周末打羽毛球。", "zh")
    ids, _ = words_ranked(store, "谁喜欢打羽毛球？")
    assert len(ids) == 1 and store.get_memory(ids[0])["memory"] == "赵六周末打羽毛球。"
    store.forget_memory(ids[0])  # the text stays (forgotten ranks lower, still found)
    assert words_ranked(store, "羽毛球")[0] == ids
    index = store_search._chinese_index(read(store))
    assert len(index.rows) == 7  # five memories, their documents' titles hold none, + 1
    assert store_search._chinese_index(read(store)) is index  # one per store


def test_a_file_source_asks_in_chinese_too():
    ds = Dataset()
    for key, text in FACTS.items():
        ds.add_memory(MemoryRecord(key, text, container_tag="zh"), None)
    index = AskIndex(ds)
    try:
        result = index.search("谁在医院工作？", mode=store_search.WORDS)
        assert [h.id for h in result.hits][:1] == ["nurse"]
    finally:
        index.close()


def test_jieba_loads_only_for_chinese_and_writes_no_cache(tmp_path):
    """Opening a store and asking in English never imports jieba (the app starts as
    fast as before); a Chinese text loads its packaged dictionary, writing nothing to
    the temporary folder (jieba's own loader would keep a cache there)."""
    script = """
import sys
from pathlib import Path
from memscope.store.store import Store
store = Store.create(Path(sys.argv[1]) / "s.db")
store.add_document("Maya flies to Lisbon on Friday.", "s")
store.search("where is Maya travelling?")
print("jieba" in sys.modules)
store.add_document("张三住在北京。", "s")
print([h["text"] for h in store.search("北京")["hits"] if h["kind"] == "memory"])
print("jieba" in sys.modules)
"""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split("\n")[:3] == ["False", "['张三住在北京。']", "True"], out.stderr
    assert not list(tmp.glob("jieba*")), list(tmp.iterdir())

"""Meaning, offline: static embeddings shipped inside a package (:mod:`.embed`), the
hybrid local Ask that uses them, and the semantic audit (:mod:`.findings`): suspected
contradictions, suspicious updates and near-duplicates."""

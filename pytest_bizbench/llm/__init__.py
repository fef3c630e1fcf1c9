"""The built-in client for OpenAI-compatible endpoints (the optional extra `pytest-bizbench[llm]`).

`options` is plain settings and imports nothing optional; `client` needs httpx and is
imported only by a run that names a model (`runtime.open_runtime`).
"""

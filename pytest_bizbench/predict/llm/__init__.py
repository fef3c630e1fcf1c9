"""The built-in client for OpenAI-compatible endpoints (the optional extra `pytest-bizbench[llm]`).

Its settings live with the other options (`options/llm.py`) and import nothing
optional; `client` needs httpx and is imported only by a run that names a model
(`runtime.open_runtime`).
"""

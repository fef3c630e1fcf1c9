"""Root conftest of the repository's own test suite.

`pytester` drives real pytest sessions in the end-to-end tests. The shipped
example suite has its own `golden_cases/pytest.ini`, so this file does not
apply to it.
"""

pytest_plugins = ("pytester",)

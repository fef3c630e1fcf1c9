"""Reading and writing paths that come from users (never outside what they named), and
escaping untrusted text for each output."""

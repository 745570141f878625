"""The secret-scan corpus: a generator of fake credentials, real non-secrets, the measurement."""

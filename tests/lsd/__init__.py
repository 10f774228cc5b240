"""Tests of the LSD tile game (pacru.lsd), with the rule or RULING of LSD.md each checks."""

"""The runtime verifier: compiles graph entries with the real MindSpore compiler."""

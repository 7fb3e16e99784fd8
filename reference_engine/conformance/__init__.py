"""The conformance suite's machinery: cases, the engine interface, the protocol, the runner."""

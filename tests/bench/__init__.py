"""Package marker: imported as tests.bench."""

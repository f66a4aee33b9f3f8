"""Package marker: imported as tests.collect."""

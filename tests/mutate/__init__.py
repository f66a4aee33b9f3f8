"""Package marker: imported as tests.mutate."""

"""Package marker: imported as tests.biosrom."""

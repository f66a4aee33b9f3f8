"""apmoff-sweep: 86Box machine table, configs, boots, verdicts, tables."""

"""Host tools. tools/apmoff-collect is the program; tools/apmoff_collect/ its package."""

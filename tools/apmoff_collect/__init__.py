"""apmoff-collect: reading reports, the database, the HTML report."""

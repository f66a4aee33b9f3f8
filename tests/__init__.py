"""apmoff's tests, one package from the repository root: run them from there with
`python3 -m tests.run_all` (or `make test`); every module imports its neighbours as
`tests.emu.qemu`, `tests.biosrom.build`, `tools.apmoff_collect.database`, never by path."""

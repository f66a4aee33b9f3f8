/* An SSDT that reaches into a DSDT (load2.asl): External, Scope, and a \_PTS. */
DefinitionBlock ("", "SSDT", 2, "APMOFF", "SSDT1", 1)
{
    External (\_SB.PCI0, DeviceObj)
    External (\_SB.PCI0.XVAL, IntObj)
    External (\_SB.PCI0.PMIO, FieldUnitObj)
    Scope (\_SB.PCI0) { Name (SVAL, 0x10) Method (SGET) { Return (XVAL + SVAL) } }
    Method (\_PTS, 1) { \_SB.PCI0.PMIO = Arg0 | 0x50 }
}

/* A DSDT with the scope ssdt1.asl extends (the harness loads both). */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "LOAD2", 1)
{
    External (\_SB.PCI0.SGET, MethodObj)
    External (\_PTS, MethodObj)
    Scope (\_SB) {
        Device (PCI0) {
            Name (_HID, EisaId ("PNP0A08"))
            Name (_CID, EisaId ("PNP0A03"))
            Name (XVAL, 2)
            OperationRegion (PMR, SystemIO, 0x4000, 4)
            Field (PMR, ByteAcc, NoLock, Preserve) { PMIO, 8 }
            Device (EC0) {
                Name (_HID, EisaId ("PNP0C09"))
                Name (ECOK, 0)
                OperationRegion (ECR, EmbeddedControl, 0, 0xFF)
                Field (ECR, ByteAcc, NoLock, Preserve) { Offset (0x30), ECPT, 8 }
                Method (_REG, 2) { If (Arg0 == 3) { ECOK = Arg1 } }
            }
        }
    }
    Method (T001) { Return (\_SB.PCI0.SGET ()) }
    Method (T002) { \_PTS (5) Return (\_SB.PCI0.PMIO) }
    Method (T003) { Return (\_SB.PCI0.EC0.ECOK) }
}

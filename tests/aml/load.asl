/* Module-level code, forward references, duplicate names and errors forgiven at load
 * (compiled with iasl: -f, which keeps the duplicate name iasl rejects),
 * names in packages resolved after the load. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "LOAD", 1)
{
    External (\NOTT, IntObj)
    OperationRegion (PRT, SystemIO, 0x90, 2)
    Field (PRT, ByteAcc, NoLock, Preserve) { P90, 8, P91, 8 }
    Name (PFWD, Package () { LATE, MLAT, \DEV2 })
    If (CondRefOf (\_OSI)) { Name (OSIY, 1) } Else { Name (OSIN, 1) }
    If (1) { P90 = 0x42 }
    Name (DUP1, 1)
    Name (DUP1, 2)
    Store (NOTT, Local0)
    Name (AFTR, 3)
    Device (DEV2) { Name (_HID, "APM0003") Method (_STA) { P91 = 0x5A Return (0x0F) } }
    Name (LATE, 0x1234)
    Method (MLAT) { Return (5) }
    Name (CALC, 0)
    Method (SETC) { CALC = 0x77 }
    SETC ()
    Method (T001) { Return (DerefOf (PFWD [0])) }
    Method (T002) { Return (ObjectType (PFWD [1])) }
    Method (T003) { Return (CondRefOf (OSIY)) }
    Method (T004) { Return (DUP1) }
    Method (T005) { Return (AFTR) }
    Method (T006) { Return (CALC) }
    Method (T007) { Return (P90) }
    Method (T008) { Return (P91) }
}

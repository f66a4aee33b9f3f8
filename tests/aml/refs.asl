/* References, packages, object types, sizes, Match, CopyObject, Alias, scopes. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "REFS", 1)
{
    Name (INT1, 7)
    Name (STR1, "hello")
    Name (BUF1, Buffer () { 1, 2, 3, 4 })
    Name (PKG1, Package () { 1, 2, 3, Package () { 4, 5 } })
    Name (PKG2, Package () { 0x10, 0x20, 0x30, 0x40 })
    Name (PKGN, Package () { INT1, STR1, DEV1, MTX1 })
    Mutex (MTX1, 0)
    Event (EVT1)
    Device (DEV1) { Name (_HID, "APM0001") Name (VAL, 3) }
    Alias (INT1, AINT)
    Scope (DEV1) { Name (VAL2, 4) Method (GETV) { Return (VAL + VAL2) } }
    Method (SETA, 1) { Arg0 = 99 }
    Method (SETR, 1) { Arg0 = 42 }
    Method (SETI, 1) { Arg0 [0] = 0x77 }
    Method (T001) { Local0 = RefOf (INT1) Return (DerefOf (Local0)) }
    Method (T002) { Local0 = RefOf (INT1) Local0 = 5 Return (INT1) }
    Method (T003) { If (CondRefOf (\DEV1.VAL, Local0)) { Return (DerefOf (Local0)) } Return (0) }
    Method (T004) { Return (CondRefOf (\NONE)) }
    Method (T005) { Return (DerefOf (Index (PKG1, 2))) }
    Method (T006) { Return (DerefOf (DerefOf (Index (PKG1, 3)) [1])) }
    Method (T007) { Index (BUF1, 1) = 0xEE Return (BUF1) }
    Method (T008) { Index (PKG2, 2) = "new" Return (PKG2) }
    Method (T009) { Return (DerefOf (Index (STR1, 1))) }
    Method (T010) { STR1 [0] = 0x4A Return (STR1) }
    Method (T011) {
        Local0 = Package (8) {}
        Local0 [0] = ObjectType (INT1)
        Local0 [1] = ObjectType (STR1)
        Local0 [2] = ObjectType (BUF1)
        Local0 [3] = ObjectType (PKG1)
        Local0 [4] = ObjectType (DEV1)
        Local0 [5] = ObjectType (MTX1)
        Local0 [6] = ObjectType (EVT1)
        Local0 [7] = ObjectType (T001)
        Return (Local0)
    }
    Method (T012) { Return ((SizeOf (STR1) << 16) | (SizeOf (BUF1) << 8) | SizeOf (PKG1)) }
    Method (T013) { Return (Match (PKG2, MEQ, 0x30, MTR, 0, 0)) }
    Method (T014) { Return (Match (PKG2, MGT, 0x15, MLT, 0x40, 0)) }
    Method (T015) { Return (Match (PKG2, MEQ, 0x99, MTR, 0, 0)) }
    Method (T016) { Return (Match (PKG2, MGE, 0x20, MTR, 0, 2)) }
    Method (T017) { CopyObject ("now a string", INT1) Return (INT1) }
    Method (T018) { Return (AINT) }
    Method (T019) { Return (\DEV1.GETV ()) }
    Method (T020) { Local0 = INT1 SETA (Local0) Return (Local0) }
    Method (T021) { Local0 = Buffer () { 1, 2 } SETI (Local0) Return (Local0) }
    Method (T022) { Local0 = "\\DEV1.VAL" Return (DerefOf (Local0)) }
    Method (T023) { Return (DerefOf (PKGN [0])) }
    Method (T024) { Return (ObjectType (PKGN [2])) }
    Method (T025) { Local0 = Index (PKG2, 1) Return (DerefOf (Local0)) }
    Method (T026) { Local1 = Package () { 1, 2, 3 } Local0 = Index (Local1, 0) Local0 = 9 Return (Local1) }
    Method (T027) { Store (Index (PKG2, 3), Local0) Return (ObjectType (Local0)) }
    Method (T029) { Local0 = PKG1 Local0 [0] = 100 Return (DerefOf (PKG1 [0])) }
    Method (T030) { Return (Index (BUF1, 9)) }
    Method (T031) { CopyObject (PKG1, Local0) Return (SizeOf (Local0)) }
    Method (T032) { Local0 = RefOf (DEV1) Return (ObjectType (Local0)) }
    Method (T033) { Return (ObjectType (Local7)) }
    Method (T034) { Local0 = Package () { Package () { 1 } } Local1 = DerefOf (Local0 [0]) Local1 [0] = 5 Return (Local0) }
}

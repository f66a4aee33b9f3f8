/* Data: integer encodings, strings, buffers, packages, constants. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "DATA", 1)
{
    Name (INT1, 0x12345678)
    Name (STR1, "abc")
    Name (BUF1, Buffer (6) { 1, 2, 3 })
    Name (BUF2, Buffer () { 0xAA, 0xBB })
    Name (PKG1, Package () { 1, "two", Buffer () { 3 }, Package () { 4, 5 }, INT1, STR1 })
    Name (PKG2, Package (6) { 1, 2 })
    Name (QW, 0x123456789ABCDEF0)
    Method (T001) { Return (Zero) }
    Method (T002) { Return (One) }
    Method (T003) { Return (Ones) }
    Method (T004) { Return (0xFF) }
    Method (T005) { Return (0xFFFF) }
    Method (T006) { Return (0xFFFFFFFF) }
    Method (T007) { Return (QW) }
    Method (T008) { Return (STR1) }
    Method (T009) { Return (BUF1) }
    Method (T010) { Return (BUF2) }
    Method (T011) { Return (PKG1) }
    Method (T012) { Return (SizeOf (PKG2)) }
    Method (T013) { Return (DerefOf (Index (PKG1, 4))) }
    Method (T014) { Return (DerefOf (PKG1 [5])) }
    Method (T015) { Return (Revision) }
    Method (T016) { Local0 = Buffer (3) { 1, 2, 3, 4, 5 } Return (Local0) }
    Method (T017) { Local1 = 4 Local0 = Buffer (Local1) {} Return (Local0) }
    Method (T018) { Local1 = 3 Local0 = Package (Local1) { 7 } Return (SizeOf (Local0)) }
    Method (T019) { Return (Package () { Package () { Package () { "deep" } } }) }
    Method (T020) { Return ("") }
    Method (T021) { Return (Buffer (0) {}) }
    Method (T022) { Local0 = Package () { INT1, STR1 } Return (Local0) }
    Method (T023) { Return (ObjectType (PKG2 [5])) }
}

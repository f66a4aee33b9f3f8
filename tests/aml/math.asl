/* Arithmetic and bits, targets of every kind. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "MATH", 1)
{
    Name (NINT, 5)
    Name (NSTR, "00")
    Name (NBUF, Buffer (4) {})
    Method (T001) { Return (Add (3, 4)) }
    Method (T002) { Return (Subtract (3, 4)) }
    Method (T003) { Return (Multiply (0x10000, 0x10000)) }
    Method (T004) { Divide (100, 7, Local0, Local1) Local2 = Package (2) {} Local2 [0] = Local0 Local2 [1] = Local1 Return (Local2) }
    Method (T005) { Return (Divide (100, 7)) }
    Method (T006) { Return (Mod (100, 7)) }
    Method (T007) { Return (ShiftLeft (1, 63)) }
    Method (T008) { Return (ShiftLeft (1, 64)) }
    Method (T009) { Return (ShiftRight (0x8000000000000000, 63)) }
    Method (T010) { Return (And (0xF0F0, 0xFF00)) }
    Method (T011) { Return (NAnd (0xF0F0, 0xFF00)) }
    Method (T012) { Return (Or (0xF0F0, 0x0F00)) }
    Method (T013) { Return (NOr (0xF0F0, 0x0F00)) }
    Method (T014) { Return (XOr (0xF0F0, 0xFF00)) }
    Method (T015) { Return (Not (0)) }
    Method (T016) { Return (FindSetLeftBit (0x80)) }
    Method (T017) { Return (FindSetRightBit (0x80)) }
    Method (T018) { Return (FindSetLeftBit (0)) }
    Method (T019) { Return (FromBCD (0x1234)) }
    Method (T020) { Return (ToBCD (1234)) }
    Method (T021) { Local0 = 5 Local0++ Local0++ Local0-- Return (Local0) }
    Method (T022) { NINT++ Return (NINT) }
    Method (T023) { Local0 = 0 Local0-- Return (Local0) }
    Method (T024) { Add (1, 2, NSTR) Return (NSTR) }
    Method (T025) { Add (0x0102, 0x0304, NBUF) Return (NBUF) }
    Method (T026) { Local0 = "10" Return (Add (Local0, 1)) }
    Method (T027) { Local0 = Buffer () { 1, 2 } Return (Add (Local0, 1)) }
    Method (T028) { Local0 = (3 + 4) * 2 Return (Local0) }
    Method (T029) { Local0 = 7 Local0 += 3 Local0 <<= 2 Return (Local0) }
    Method (T030) { Local0 = 0 Return (1 / Local0) }
    Method (T031) { Local0 = 0 Return (Mod (1, Local0)) }
    Method (T032) { Return (Add (0xFFFFFFFFFFFFFFFF, 2)) }
    Method (T033) { Local0 = 0x0B Return (ToBCD (Local0) + FromBCD (0x99)) }
    Method (T034) { Local0 = 0xA Return (FromBCD (Local0)) }
}

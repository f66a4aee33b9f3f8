/* A revision 1 DSDT: integers are 32 bits wide. */
DefinitionBlock ("", "DSDT", 1, "APMOFF", "MATH32", 1)
{
    Name (NINT, 0xFFFFFFFF)
    Method (T001) { Return (Ones) }
    Method (T002) { Return (Add (0xFFFFFFFF, 1)) }
    Method (T003) { Local0 = 0 Local0-- Return (Local0) }
    Method (T004) { NINT++ Return (NINT) }
    Method (T005) { Return (Not (0)) }
    Method (T006) { Return (ShiftLeft (1, 32)) }
    Method (T007) { Return (ToBuffer (0x11223344)) }
    Method (T008) { Return (ToHexString (0xABC)) }
    Method (T009) { Return (Concatenate (1, 2)) }
    Method (T010) { Return (LNot (0)) }
    Method (T011) { Return (ToInteger ("0x123456789")) }
    Method (T012) { Return (Multiply (0x10000, 0x10000)) }
    Method (T013) { Return (SizeOf (NINT)) }
}

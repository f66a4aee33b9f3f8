/* Logic and comparisons: integers, strings, buffers, mixed. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "LOGIC", 1)
{
    Name (S1, "abc")
    Name (S2, "abd")
    Name (B1, Buffer () { 1, 2 })
    Method (T001) { Return (LAnd (1, 2)) }
    Method (T002) { Return (LOr (0, 0)) }
    Method (T003) { Return (LNot (5)) }
    Method (T004) { Return (LEqual (5, 5)) }
    Method (T005) { Return (LGreater (6, 5)) }
    Method (T006) { Return (LLess (6, 5)) }
    Method (T007) { Return (LNotEqual (6, 5)) }
    Method (T008) { Return (LGreaterEqual (5, 5)) }
    Method (T009) { Return (LLessEqual (6, 5)) }
    Method (T010) { Return (LEqual (S1, "abc")) }
    Method (T011) { Return (LLess (S1, S2)) }
    Method (T012) { Return (LGreater ("abcd", S1)) }
    Method (T013) { Return (LEqual (B1, Buffer () { 1, 2 })) }
    Method (T014) { Return (LLess (B1, Buffer () { 1, 2, 0 })) }
    Method (T015) { Return (LEqual (0x201, B1)) }
    Method (T016) { Return (LEqual ("1A", 0x1A)) }
    Method (T017) { Return (LEqual (0x1A, "1A")) }
    Method (T018) { Return (LEqual (S1, B1)) }
    Method (T019) { Return (LGreater (B1, "A")) }
    Method (T020) { If (("abc" == S1) && (2 > 1)) { Return (1) } Return (0) }
    Method (T021) { Return (!0) }
    Method (T022) { Local0 = Package () { 1 } Return (LEqual (Local0, 1)) }
}

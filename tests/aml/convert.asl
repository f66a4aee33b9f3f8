/* Conversions: explicit and implicit, Concatenate, Mid, ToString, resource templates. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "CONVERT", 1)
{
    Name (NINT, 0)
    Name (NSTR, "xxxxxxxx")
    Name (NBUF, Buffer (4) { 0xFF, 0xFF, 0xFF, 0xFF })
    Name (NBU0, Buffer (0) {})
    Name (RT1, ResourceTemplate () { IO (Decode16, 0x62, 0x62, 0, 1) })
    Name (RT2, ResourceTemplate () { IO (Decode16, 0x66, 0x66, 0, 1) })
    Method (T001) { Return (ToInteger ("0x1F")) }
    Method (T002) { Return (ToInteger ("123")) }
    Method (T003) { Return (ToInteger (" 0042abc")) }
    Method (T004) { Return (ToInteger (Buffer () { 1, 2, 3 })) }
    Method (T005) { Return (ToBuffer ("ab")) }
    Method (T006) { Return (ToBuffer (0x0102)) }
    Method (T007) { Return (ToHexString (0x1F)) }
    Method (T008) { Return (ToHexString (Buffer () { 1, 0xAB })) }
    Method (T009) { Return (ToDecimalString (1234)) }
    Method (T010) { Return (ToDecimalString (Buffer () { 1, 200, 20 })) }
    Method (T011) { Return (ToString (Buffer () { 0x41, 0x42, 0, 0x43 }, Ones)) }
    Method (T012) { Return (ToString (Buffer () { 0x41, 0x42, 0x43 }, 2)) }
    Method (T013) { Return (Concatenate ("ab", "cd")) }
    Method (T014) { Return (Concatenate ("ab", 0x12)) }
    Method (T015) { Return (Concatenate (0x12, "34")) }
    Method (T016) { Return (Concatenate (Buffer () { 1 }, 0x0203)) }
    Method (T017) { Return (Concatenate ("x", Buffer () { 1, 2 })) }
    Method (T018) { Return (Concatenate ("p", Package () { 1 })) }
    Method (T019) { Return (Mid ("hello", 1, 3)) }
    Method (T020) { Return (Mid (Buffer () { 1, 2, 3 }, 2, 9)) }
    Method (T021) { Return (Mid ("hello", 9, 1)) }
    Method (T022) { NINT = "1F" Return (NINT) }
    Method (T023) { NINT = Buffer () { 1, 2 } Return (NINT) }
    Method (T024) { NSTR = 0x1F Return (NSTR) }
    Method (T025) { NSTR = Buffer () { 0x41, 0x42 } Return (NSTR) }
    Method (T026) { NBUF = 0x0102 Return (NBUF) }
    Method (T027) { NBUF = "a" Return (NBUF) }
    Method (T028) { NBUF = Buffer () { 9, 9, 9, 9, 9, 9 } Return (NBUF) }
    Method (T029) { NBU0 = Buffer () { 9, 8 } Return (NBU0) }
    Method (T030) { ToInteger ("5", NSTR) Return (NSTR) }
    Method (T031) { Return (ConcatenateResTemplate (RT1, RT2)) }
    Method (T032) { Local0 = 0x1234 Return (Concatenate (Local0, Local0)) }
    Method (T033) { Return (ToInteger ("")) }
    Method (T034) { Return (Concatenate (Buffer () { 1 }, "AB")) }
    Method (T035) { Return (ToHexString ("str")) }
}

/* Control flow: If/Else/ElseIf, While, Break, Continue, Return, calls, Name in methods. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "CONTROL", 1)
{
    OperationRegion (PRT, SystemIO, 0x80, 4)
    Field (PRT, ByteAcc, NoLock, Preserve) { P80, 8, P81, 8, P82, 8, P83, 8 }
    Name (CNT, 0)
    Method (ADD1, 1) { Return (Arg0 + 1) }
    Method (FACT, 1) { If (Arg0 <= 1) { Return (1) } Return (Arg0 * FACT (Arg0 - 1)) }
    Method (NOPE, 0) { P83 = 0x55 }
    Method (SEVN, 7) { Return (Arg0 + Arg1 + Arg2 + Arg3 + Arg4 + Arg5 + Arg6) }
    Method (T001) { If (1) { Return (1) } Else { Return (2) } }
    Method (T002) { If (0) { Return (1) } ElseIf (1) { Return (3) } Else { Return (2) } }
    Method (T003) { Local0 = 0 While (Local0 < 10) { Local0++ P80 = Local0 } Return (Local0) }
    Method (T004) { Local0 = 0 While (1) { Local0++ If (Local0 == 5) { Break } } Return (Local0) }
    Method (T005) {
        Local0 = 0
        Local1 = 0
        While (Local0 < 10) { Local0++ If (Local0 & 1) { Continue } Local1 += Local0 }
        Return (Local1)
    }
    Method (T006) { Local0 = 0 While (1) { Local0++ While (1) { Break } If (Local0 > 3) { Return (Local0) } } }
    Method (T007) { Return (ADD1 (ADD1 (ADD1 (1)))) }
    Method (T008) { Return (FACT (10)) }
    Method (T009) { Return (SEVN (1, 2, 3, 4, 5, 6, 7)) }
    Method (T010) { NOPE () Return (P83) }
    Method (T011) { Name (LOCN, 7) LOCN += 1 Return (LOCN) }
    Method (T012) { T011 () Return (T011 ()) }
    Method (T013) { Local0 = 0 While (Local0 < 3) { Local0++ CNT++ } Return (CNT) }
    Method (T014) { Switch (ToInteger (2)) { Case (1) { Return (10) } Case (Package () { 2, 3 }) { Return (20) } Default { Return (30) } } }
    Method (T015) { Switch ("b") { Case ("a") { Return (1) } Case ("b") { Return (2) } } Return (0) }
    Method (T016) { Noop Return (5) }
    Method (T017) { P81 = 1 While (1) { P82 = 2 } }
    Method (T019) { Return (ADD1 (ADD1 (ADD1 (ADD1 (ADD1 (ADD1 (ADD1 (ADD1 (0))))))))) }
}

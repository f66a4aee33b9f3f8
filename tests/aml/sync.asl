/* Synchronisation, time, notifications, _OSI, _REV, the Debug object, Fatal. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "SYNC", 1)
{
    Mutex (MTX0, 0)
    Mutex (MTX5, 5)
    Event (EVT0)
    Device (DEV0) { Name (_HID, "APM0002") }
    OperationRegion (PRT, SystemIO, 0x80, 1)
    Field (PRT, ByteAcc, NoLock, Preserve) { P80, 8 }
    Method (SERM, 0, Serialized) { Return (1) }
    Method (T001) { Local0 = Acquire (MTX0, 0xFFFF) Release (MTX0) Return (Local0) }
    Method (T002) { Acquire (MTX0, 0) Local0 = Acquire (MTX0, 0) Release (MTX0) Release (MTX0) Return (Local0) }
    Method (T003) { Acquire (MTX5, 0) Local0 = Acquire (MTX0, 0) Return (Local0) }
    Method (T004) { Release (MTX0) Return (1) }
    Method (T005) { Signal (EVT0) Local0 = Wait (EVT0, 0) Return (Local0) }
    Method (T006) { Reset (EVT0) Local0 = Wait (EVT0, 1) Return (Local0) }
    Method (T007) { Sleep (1) Stall (50) P80 = 1 Return (2) }
    Method (T008) { Local0 = 300 Stall (Local0) Return (1) }
    Method (T009) { Notify (DEV0, 0x80) Return (1) }
    Method (T010) {
        Local0 = Package (5) {}
        Local0 [0] = _OSI ("Windows 2009")
        Local0 [1] = _OSI ("Linux")
        Local0 [2] = _OSI ("Windows 2006")
        Local0 [3] = _OSI ("Windows 2015")
        Local0 [4] = _OSI ("Module Device")
        Return (Local0)
    }
    Method (T011) { Return (\_REV) }
    Method (T012) { Debug = "debug line" Debug = 0x1234 Return (1) }
    Method (T013) { Fatal (1, 2, 3) Return (4) }
    Method (T014) { Return (SERM ()) }
    Method (T015) { Local0 = Acquire (\_GL, 0xFFFF) Release (\_GL) Return (Local0) }
    Method (T016) { Return (\_OS) }
}

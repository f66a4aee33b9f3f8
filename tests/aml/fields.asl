/* Fields: every access type and update rule, unaligned and wide fields, Offset,
 * AccessAs, IndexField, BankField, buffer fields, and the address spaces. */
DefinitionBlock ("", "DSDT", 2, "APMOFF", "FIELDS", 1)
{
    OperationRegion (IO1, SystemIO, 0x400, 0x20)
    Field (IO1, ByteAcc, NoLock, Preserve) { B0, 8, B1, 4, B1H, 4, , 3, B2, 10, Offset (6), B6, 1 }
    Field (IO1, WordAcc, NoLock, Preserve) { Offset (8), W8, 16, , 4, W10, 8 }
    Field (IO1, DWordAcc, NoLock, WriteAsOnes) { Offset (0x10), D10, 32, , 2, D14, 5 }
    Field (IO1, DWordAcc, NoLock, WriteAsZeros) { Offset (0x18), , 8, Z19, 8 }
    Field (IO1, AnyAcc, NoLock, Preserve) { Offset (0x1C), A1C, 24 }
    Field (IO1, ByteAcc, NoLock, Preserve) { Offset (0x1F), , 1, AccessAs (WordAcc), X1F, 2 }
    OperationRegion (MEM1, SystemMemory, 0xFED00000, 0x100)
    Field (MEM1, QWordAcc, NoLock, Preserve) { Q0, 64, , 4, Q8, 8, Offset (0x20), WIDE, 128 }
    Field (MEM1, ByteAcc, NoLock, Preserve) { Offset (0x40), BIG, 96, Offset (0x50), CRSS, 40 }
    OperationRegion (IDX, SystemIO, 0x70, 2)
    Field (IDX, ByteAcc, NoLock, Preserve) { INDX, 8, DATA, 8 }
    IndexField (INDX, DATA, ByteAcc, NoLock, Preserve) { Offset (0x10), IF10, 8, IF11, 4, IF1H, 4, Offset (0x20), IF20, 16 }
    OperationRegion (BNKR, SystemIO, 0x500, 0x10)
    Field (BNKR, ByteAcc, NoLock, Preserve) { BSEL, 8 }
    BankField (BNKR, BSEL, 2, ByteAcc, NoLock, Preserve) { Offset (4), BK2, 8 }
    BankField (BNKR, BSEL, 3, ByteAcc, NoLock, Preserve) { Offset (4), BK3, 8 }
    OperationRegion (PCI1, PCI_Config, 0x40, 0x40)
    Field (PCI1, DWordAcc, NoLock, Preserve) { P40, 32, , 3, P44, 2 }
    OperationRegion (CMS, SystemCMOS, 0, 0x100)
    Field (CMS, ByteAcc, NoLock, Preserve) { Offset (0x40), C40, 8 }
    OperationRegion (ECR, EmbeddedControl, 0, 0x100)
    Field (ECR, ByteAcc, Lock, Preserve) { Offset (0x10), E10, 8, E11, 16, Offset (0x20), E20, 72 }
    Name (BUF, Buffer (16) {})
    CreateBitField (BUF, 3, CBIT)
    CreateByteField (BUF, 1, CBYT)
    CreateWordField (BUF, 2, CWRD)
    CreateDWordField (BUF, 4, CDWD)
    CreateQWordField (BUF, 8, CQWD)
    CreateField (BUF, 4, 12, CFLD)
    Method (T001) { B0 = 0x12 B1 = 3 B1H = 0xA Return (Package () { B0, B1, B1H }) }
    Method (T002) { B2 = 0x3FF Return (B2) }
    Method (T003) { B6 = 1 Return (B6) }
    Method (T004) { W8 = 0xBEEF W10 = 0x55 Return (W10) }
    Method (T005) { D10 = 0x11223344 D14 = 0x1F Return (D14) }
    Method (T006) { Z19 = 0xAB Return (Z19) }
    Method (T007) { A1C = 0x123456 Return (A1C) }
    Method (T008) { X1F = 3 Return (X1F) }
    Method (T009) { Q0 = 0x1122334455667788 Q8 = 0x99 Return (Q0) }
    Method (T010) { WIDE = Buffer () { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 } Return (WIDE) }
    Method (T011) { BIG = 0x123456789A Return (BIG) }
    Method (T012) { CRSS = 0xFFFFFFFFFF Return (CRSS) }
    Method (T013) { IF10 = 0x5A IF1H = 7 Return (IF11) }
    Method (T014) { IF20 = 0xCAFE Return (IF20) }
    Method (T015) { BK2 = 0x22 BK3 = 0x33 Return (BK2) }
    Method (T016) { P40 = 0x8000 P44 = 3 Return (P40) }
    Method (T017) { C40 = 0x99 Return (C40) }
    Method (T018) { E10 = 1 E11 = 0x1234 Return (E11) }
    Method (T019) { E20 = 0x0102030405 Return (E20) }
    Method (T020) { CBIT = 1 CBYT = 0xAA CWRD = 0xBBCC CDWD = 0x11223344 CQWD = 0x55 Return (BUF) }
    Method (T021) { CFLD = 0xFFF Return (CFLD) }
    Method (T022) { Local0 = Buffer (4) {} CreateWordField (Local0, 1, LWRD) LWRD = 0xFFFF Return (Local0) }
    Method (T023) { Local0 = Buffer (2) {} CreateDWordField (Local0, 0, LDW) Return (0) }
    Method (T024) { B0 = "7" Return (B0) }
    Method (T025) { B0 = Buffer () { 0x31, 0x32 } Return (B0) }
    Method (T026) { Local0 = B0 + B1 Return (Local0) }
    Method (T027) { Return (Add (B0, Add (B1, B6))) }
}

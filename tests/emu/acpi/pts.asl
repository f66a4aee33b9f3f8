/* An SSDT for QEMU's pc (PIIX4) and q35 (ICH9) machines whose power-off works only
 * when \_PTS(5) has run, as on the boards whose BIOS arms soft-off in \_PTS (an ASUS
 * P3V4X's \_PTS writes the chipset and CMOS before its SMI handler cuts the power).
 *
 * When the table loads, its module-level code switches the chipset's power-management
 * I/O space off (PIIX4 function 3, configuration byte 80h bit 0, PMIOSE; ICH9's LPC
 * bridge, byte 44h bit 7, ACPI_EN), and PM1a_CNT with it: an S5 write goes nowhere.
 * \_PTS(5) switches it back on, then writes "_PTS(5)" and a newline to port 440h,
 * where the harness has a QEMU isa-debugcon listening.
 *
 * Compiled with -D STOP, \_PTS begins with an opcode apmoff does not execute
 * (LoadTable), so \_PTS stops before it switches anything on: the machine stays on.
 *
 * Its names begin with AP, apart from \_PTS, so as not to meet QEMU's own. Given to
 * QEMU with -acpitable by tests/emu/qemu.py's AcpiTable. */
DefinitionBlock ("", "SSDT", 2, "APMOFF", "PTSTEST", 1)
{
    External (\_SB.PCI0, DeviceObj)

    Scope (\_SB.PCI0)
    {
        Device (APM3)                   /* 00:01.3: the PIIX4 power-management function */
        {
            Name (_ADR, 0x00010003)
            OperationRegion (CFG, PCI_Config, 0, 0x100)
            Field (CFG, AnyAcc, NoLock, Preserve)
            {
                VID, 16,
                DID, 16,
                Offset (0x80),
                PMIO, 1                 /* PMIOSE: the PM I/O space is decoded */
            }
        }

        Device (APLP)                   /* 00:1F.0: the ICH9 LPC bridge */
        {
            Name (_ADR, 0x001F0000)
            OperationRegion (CFG, PCI_Config, 0, 0x100)
            Field (CFG, AnyAcc, NoLock, Preserve)
            {
                VID, 16,
                DID, 16,
                Offset (0x44),
                    , 7,
                ACEN, 1                 /* ACPI_EN: the PM I/O space is decoded */
            }
        }
    }

    /* The PM I/O space on (1) or off (0), on whichever of the two chips is there. */
    Method (APON, 1)
    {
        If ((\_SB.PCI0.APM3.VID == 0x8086) && (\_SB.PCI0.APM3.DID == 0x7113))
        {
            \_SB.PCI0.APM3.PMIO = Arg0
        }
        ElseIf ((\_SB.PCI0.APLP.VID == 0x8086) && (\_SB.PCI0.APLP.DID == 0x2918))
        {
            \_SB.PCI0.APLP.ACEN = Arg0
        }
    }

    OperationRegion (APXP, SystemIO, 0x0440, 1)
    Field (APXP, ByteAcc, NoLock, Preserve)
    {
        APXB, 8
    }

    /* Each byte of a string to port 440h, then a newline. */
    Method (APXS, 1, Serialized)
    {
        Local0 = 0
        While (Local0 < SizeOf (Arg0))
        {
            APXB = DerefOf (Arg0 [Local0])
            Local0++
        }
        APXB = 0x0A
    }

    APON (0)

    Method (_PTS, 1)
    {
#ifdef STOP
        LoadTable ("APMOFF", "", "")
#endif
        If (Arg0 == 5)
        {
            APON (1)
        }
        APXS (Concatenate (Concatenate ("_PTS(", ToDecimalString (Arg0)), ")"))
    }
}

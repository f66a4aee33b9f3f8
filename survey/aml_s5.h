/* The \_S5_ (soft off) package in AML: a small, bounded reader.
 *
 * The sleep type values to write to PM1a_CNT.SLP_TYP and PM1b_CNT.SLP_TYP for S5 are
 * the first two elements of the package named \_S5_ (ACPI 6.x, 7.4.2). The reader
 * walks a DSDT's or SSDT's term list (the bytes after the 36-byte header) as the AML
 * grammar (ACPI 6.x, 20.2) defines it, keeping track of the scope so that only the
 * object whose full path is \_S5_ counts:
 *   - NameOp 08h with any NameString (root prefix 5Ch, parent prefixes 5Eh,
 *     DualNamePrefix 2Eh, MultiNamePrefix 2Fh, NullName 00h) and a data object;
 *   - ScopeOp 10h (entered), IfOp A0h and ElseOp A1h (entered: a BIOS may write
 *     If (SS5) { Name (_S5, ...) }; the predicate is skipped when it is a constant, a
 *     name, ArgX/LocalX, a string, or a logical, And/Or or CondRefOf of those);
 *   - skipped whole by their PkgLength: MethodOp 14h (unless it is \_S5_ itself,
 *     which is then named as a method), WhileOp A2h, BufferOp 11h,
 *     PackageOp 12h, VarPackageOp 13h, Device/Processor/PowerResource/ThermalZone
 *     (5B 82h-85h), Field/IndexField/BankField (5B 81h, 86h, 87h);
 *   - sized from their operands: OperationRegion (5B 80h), Mutex (5B 01h),
 *     Event (5B 02h), DataRegion (5B 88h), Alias 06h, External 15h, Noop A3h.
 * At any other opcode it stops, and only then searches the rest of the stream for
 * NameOp [5Ch] '_S5_' PackageOp (08 [5C] 5F 53 35 5F 12), taking a match only when
 * its PkgLength and first elements parse, and preferring one written \_S5_ (at the
 * root) to a bare _S5_ that may belong to a device's scope; the result says which way
 * it was found.
 *
 * Package elements understood: ZeroOp 00h, OneOp 01h, OnesOp FFh, BytePrefix 0Ah,
 * WordPrefix 0Bh, DWordPrefix 0Ch, QWordPrefix 0Eh. As ACPICA (hwxface.c) does, a
 * one-element package holds both values (SLP_TYPa in bits 0-7, SLP_TYPb in 8-15),
 * and each value is kept as its low 8 bits.
 *
 * Every read is bounded by the stream's length and every PkgLength by the object
 * that holds it; nesting is bounded by AML_NEST_MAX. Compiled for the kernel and the
 * host; no I/O. */
#ifndef APMOFF_SURVEY_AML_S5_H
#define APMOFF_SURVEY_AML_S5_H

#include <stddef.h>
#include <stdint.h>

#define AML_NEST_MAX    16      /* Scope/If levels, and expression levels */

enum aml_s5_result {
    AML_S5_FOUND,
    AML_S5_ABSENT,              /* read to the end: no \_S5_ */
    AML_S5_UNREADABLE,          /* \_S5_ is there, but not a package of integers */
    AML_S5_NOT_UNDERSTOOD,      /* the walk stopped, and the search found nothing */
    AML_S5_METHOD,              /* \_S5_ is a Method: only running it gives the values */
};

enum aml_s5_how {
    AML_S5_BY_WALK,             /* the term list was read up to \_S5_ */
    AML_S5_BY_SEARCH,           /* the walk stopped first; found by the byte search */
};

struct aml_s5 {
    uint8_t result;             /* enum aml_s5_result */
    uint8_t how;                /* enum aml_s5_how, when FOUND or UNREADABLE */
    uint8_t slp_typa, slp_typb;
    uint8_t elements;           /* the package's NumElements */
    uint8_t stop_opcode;        /* when the walk stopped: the byte there */
    uint8_t conditional;        /* found inside an If or Else body */
    uint32_t offset;            /* of the NameOp, from the stream's start */
    uint32_t stop_offset;       /* where the walk stopped (the stream's length if not) */
};

/* Looks for \_S5_ in len bytes of AML (a table's body, after its header). Returns
 * out->result. */
enum aml_s5_result aml_find_s5(const uint8_t *aml, size_t len, struct aml_s5 *out);

#endif

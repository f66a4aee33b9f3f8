/* The opcode table: every AML opcode of ACPI 6.x (20.2) with its name, how its
 * operands are parsed and resolved (see amlint.h for the letters, which follow
 * ACPICA's ARGP and ARGI lists), and the function that runs it. Named-object and
 * control opcodes have their own parsers (named.c, exec.c); Load, LoadTable and
 * Unload are known and refused. */
#include "ops.h"

#define E(code, name, parse, resolve, fn) { code, OPC_EXPR, name, parse, resolve, fn }
#define S(code, name, parse, resolve, fn) { code, OPC_STMT, name, parse, resolve, fn }
#define K(code, cls, name) { code, cls, name, "", "", 0 }

static const struct aml_opinfo table[] = {
    /* data */
    K(0x00, OPC_DATA, "Zero"), K(0x01, OPC_DATA, "One"), K(0xFF, OPC_DATA, "Ones"),
    K(0x0A, OPC_DATA, "BytePrefix"), K(0x0B, OPC_DATA, "WordPrefix"),
    K(0x0C, OPC_DATA, "DWordPrefix"), K(0x0D, OPC_DATA, "StringPrefix"),
    K(0x0E, OPC_DATA, "QWordPrefix"), K(0x11, OPC_DATA, "Buffer"),
    K(0x12, OPC_DATA, "Package"), K(0x13, OPC_DATA, "VarPackage"),
    K(0x5B30, OPC_DATA, "Revision"),
    K(0x60, OPC_LOCAL, "Local0"), K(0x61, OPC_LOCAL, "Local1"), K(0x62, OPC_LOCAL, "Local2"),
    K(0x63, OPC_LOCAL, "Local3"), K(0x64, OPC_LOCAL, "Local4"), K(0x65, OPC_LOCAL, "Local5"),
    K(0x66, OPC_LOCAL, "Local6"), K(0x67, OPC_LOCAL, "Local7"),
    K(0x68, OPC_ARG, "Arg0"), K(0x69, OPC_ARG, "Arg1"), K(0x6A, OPC_ARG, "Arg2"),
    K(0x6B, OPC_ARG, "Arg3"), K(0x6C, OPC_ARG, "Arg4"), K(0x6D, OPC_ARG, "Arg5"),
    K(0x6E, OPC_ARG, "Arg6"),
    K(0x5B31, OPC_DEBUG, "Debug"),
    /* names */
    K(0x06, OPC_NAMED, "Alias"), K(0x08, OPC_NAMED, "Name"), K(0x10, OPC_NAMED, "Scope"),
    K(0x14, OPC_NAMED, "Method"), K(0x15, OPC_NAMED, "External"),
    K(0x5B01, OPC_NAMED, "Mutex"), K(0x5B02, OPC_NAMED, "Event"),
    K(0x5B80, OPC_NAMED, "OperationRegion"), K(0x5B81, OPC_NAMED, "Field"),
    K(0x5B82, OPC_NAMED, "Device"), K(0x5B83, OPC_NAMED, "Processor"),
    K(0x5B84, OPC_NAMED, "PowerResource"), K(0x5B85, OPC_NAMED, "ThermalZone"),
    K(0x5B86, OPC_NAMED, "IndexField"), K(0x5B87, OPC_NAMED, "BankField"),
    K(0x5B88, OPC_NAMED, "DataTableRegion"),
    K(0x8A, OPC_NAMED, "CreateDWordField"), K(0x8B, OPC_NAMED, "CreateWordField"),
    K(0x8C, OPC_NAMED, "CreateByteField"), K(0x8D, OPC_NAMED, "CreateBitField"),
    K(0x8F, OPC_NAMED, "CreateQWordField"), K(0x5B13, OPC_NAMED, "CreateField"),
    /* control */
    K(0xA0, OPC_CONTROL, "If"), K(0xA1, OPC_CONTROL, "Else"), K(0xA2, OPC_CONTROL, "While"),
    K(0xA3, OPC_CONTROL, "Noop"), K(0xA4, OPC_CONTROL, "Return"),
    K(0xA5, OPC_CONTROL, "Break"), K(0x9F, OPC_CONTROL, "Continue"),
    K(0xCC, OPC_CONTROL, "BreakPoint"),
    /* expressions */
    E(0x70, "Store", "tS", "VR", x_store),
    E(0x71, "RefOf", "N", "o", x_refof),
    E(0x72, "Add", "ttT", "iiR", x_math),
    E(0x73, "Concatenate", "ttT", "aaR", x_concat),
    E(0x74, "Subtract", "ttT", "iiR", x_math),
    E(0x75, "Increment", "S", "R", x_increment),
    E(0x76, "Decrement", "S", "R", x_increment),
    E(0x77, "Multiply", "ttT", "iiR", x_math),
    E(0x78, "Divide", "ttTT", "iiRR", x_divide),
    E(0x79, "ShiftLeft", "ttT", "iiR", x_math),
    E(0x7A, "ShiftRight", "ttT", "iiR", x_math),
    E(0x7B, "And", "ttT", "iiR", x_math),
    E(0x7C, "NAnd", "ttT", "iiR", x_math),
    E(0x7D, "Or", "ttT", "iiR", x_math),
    E(0x7E, "NOr", "ttT", "iiR", x_math),
    E(0x7F, "XOr", "ttT", "iiR", x_math),
    E(0x80, "Not", "tT", "iR", x_not),
    E(0x81, "FindSetLeftBit", "tT", "iR", x_find_set_bit),
    E(0x82, "FindSetRightBit", "tT", "iR", x_find_set_bit),
    E(0x83, "DerefOf", "S", "r", x_derefof),
    E(0x84, "ConcatenateResTemplate", "ttT", "BBR", x_concat_res),
    E(0x85, "Mod", "ttT", "iiR", x_mod),
    S(0x86, "Notify", "St", "vi", x_notify),
    E(0x87, "SizeOf", "S", "o", x_sizeof),
    E(0x88, "Index", "ttT", "XiR", x_index),
    E(0x89, "Match", "tbtbtt", "pici" "ci", x_match),
    E(0x8E, "ObjectType", "N", "o", x_object_type),
    E(0x90, "LAnd", "tt", "ii", x_land_lor),
    E(0x91, "LOr", "tt", "ii", x_land_lor),
    E(0x92, "LNot", "t", "i", x_lnot),
    E(0x93, "LEqual", "tt", "cc", x_compare),
    E(0x94, "LGreater", "tt", "cc", x_compare),
    E(0x95, "LLess", "tt", "cc", x_compare),
    E(0x96, "ToBuffer", "tT", "cR", x_conversion),
    E(0x97, "ToDecimalString", "tT", "cR", x_conversion),
    E(0x98, "ToHexString", "tT", "cR", x_conversion),
    E(0x99, "ToInteger", "tT", "cR", x_conversion),
    E(0x9C, "ToString", "ttT", "BiR", x_to_string),
    E(0x9D, "CopyObject", "tN", "aA", x_copy_object),
    E(0x9E, "Mid", "tttT", "xiiR", x_mid),
    E(0x5B12, "CondRefOf", "NT", "oR", x_condrefof),
    S(0x5B21, "Stall", "t", "i", x_stall),
    S(0x5B22, "Sleep", "t", "i", x_sleep),
    E(0x5B23, "Acquire", "Sw", "mi", x_acquire),
    S(0x5B24, "Signal", "S", "e", x_event),
    E(0x5B25, "Wait", "St", "ei", x_event),
    S(0x5B26, "Reset", "S", "e", x_event),
    S(0x5B27, "Release", "S", "m", x_release),
    E(0x5B28, "FromBCD", "tT", "iR", x_bcd),
    E(0x5B29, "ToBCD", "tT", "iR", x_bcd),
    S(0x5B32, "Fatal", "bdt", "iii", x_fatal),
    E(0x5B33, "Timer", "", "", x_timer),
    /* known, refused: loading tables at run time */
    { 0x5B1F, OPC_UNSUPPORTED, "LoadTable", "tttttt", "", 0 },
    { 0x5B20, OPC_UNSUPPORTED, "Load", "nS", "", 0 },
    { 0x5B2A, OPC_UNSUPPORTED, "Unload", "S", "", 0 },
};

const struct aml_opinfo *op_info(uint16_t code)
{
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (table[i].code == code)
            return &table[i];
    return NULL;
}

const char *aml_opcode_name(uint16_t code)
{
    const struct aml_opinfo *i = op_info(code);

    return i ? i->name : NULL;
}

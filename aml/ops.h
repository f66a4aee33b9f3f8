/* The functions behind the opcode table (opcodes.c), each in operators.c; and the
 * few helpers they share with the rest of the interpreter. */
#ifndef APMOFF_AML_OPS_H
#define APMOFF_AML_OPS_H

#include "amlint.h"

#define X(name) int name(struct aml *a, struct frame *f, struct operand *ops, \
                         struct aml_object **out)
X(x_store);
X(x_copy_object);
X(x_math);
X(x_divide);
X(x_mod);
X(x_not);
X(x_find_set_bit);
X(x_bcd);
X(x_increment);
X(x_land_lor);
X(x_lnot);
X(x_compare);
X(x_concat);
X(x_concat_res);
X(x_to_string);
X(x_mid);
X(x_conversion);
X(x_index);
X(x_match);
X(x_refof);
X(x_condrefof);
X(x_object_type);
X(x_sizeof);
X(x_derefof);
X(x_notify);
X(x_stall);
X(x_sleep);
X(x_timer);
X(x_fatal);
X(x_acquire);
X(x_release);
X(x_event);
#undef X

/* LEqual (93h), LGreater (94h), LLess (95h) of x and y, y converted to x's type. */
int logical_compare(struct aml *a, uint16_t op, struct aml_object *x, struct aml_object *y,
                    bool *truth);
/* Gives a held mutex back (and the global lock with \_GL). */
void release_mutex(struct aml *a, struct aml_object *m);
/* resource.c: the length of a resource template up to its End Tag; nonzero when it
 * has none or a descriptor runs past the buffer. */
int resource_end_tag(const uint8_t *p, uint32_t len, uint32_t *before_end);

#endif

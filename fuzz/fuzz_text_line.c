// SPDX-License-Identifier: MIT
/* libFuzzer: one text line through the decoder. */
#include <stddef.h>
#include <stdint.h>

#include "vmsa/vmsa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmsa_text_parser *p;
	if (vmsa_text_parser_new(&p))
		return 0;
	struct vmsa_event ev;
	enum vmsa_reject_reason r;
	vmsa_text_parse_line(p, (const char *)data, size, &ev, &r);
	vmsa_text_parser_free(p);
	return 0;
}

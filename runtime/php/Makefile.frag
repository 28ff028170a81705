# runtime/php/Makefile.frag: added to the phpize/PIE build's Makefile by config.m4. The include
# files compiler/emit_text.c and compiler/emit_ext.c are built with, made by
# scripts/gen-inc.sh as the top-level Makefile makes them (build/gen/ there, pie-src/gen/ here).
$(GTC_GEN)/emit_text.inc: $(GTC_TOP)/scripts/gen-inc.sh $(GTC_EMIT_TEXT_INPUTS)
	sh $(GTC_TOP)/scripts/gen-inc.sh emit_text.inc $@
$(GTC_GEN)/ext_template.inc: $(GTC_TOP)/scripts/gen-inc.sh $(GTC_EXT_TEMPLATE_INPUTS)
	sh $(GTC_TOP)/scripts/gen-inc.sh ext_template.inc $@
pie-src/compiler/emit_text.lo: $(GTC_GEN)/emit_text.inc
pie-src/compiler/emit_ext.lo: $(GTC_GEN)/ext_template.inc

# x86-64 GNU as: entry point
	.globl	_start
	.type	_start, @function
/* block comment
   over two lines */
_start:
	movq	$msg, %rsi		# inline comment after a blank
	movl	$(1 << 4), %eax
	call	write@PLT
.L1:	jmp	1f			// AArch64-style comment
1:	ret
msg:	.asciz	"hello, \"world\"\n"
	.byte	'a', 0x7f, -1
; NASM-style comment
	mov	r0, #4			@ ARM: '#4' is an immediate

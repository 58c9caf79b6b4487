	.file	"ks_harness.c"
	.text
	.p2align 4
	.type	derive_seeds, @function
derive_seeds:
.LFB30:
	.cfi_startproc
	movabsq	$-3335678366873096957, %r10
	movslq	%ecx, %rcx
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movabsq	$-7046029254386353131, %r11
	imulq	%r10, %rcx
	addq	%r11, %rdx
	movq	%rsp, %rbp
	.cfi_def_cfa_register 6
	pushq	%r14
	xorq	%rdx, %rcx
	pushq	%r13
	leaq	(%rcx,%r11), %rax
	pushq	%r12
	.cfi_offset 14, -24
	.cfi_offset 13, -32
	.cfi_offset 12, -40
	movabsq	$-4658895280553007687, %r12
	movq	%rax, %rdx
	pushq	%rbx
	.cfi_offset 3, -48
	movabsq	$-7723592293110705685, %rbx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	imulq	%r12, %rdx
	andq	$-64, %rsp
	subq	$8, %rsp
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	imulq	%rbx, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rax, %rdx
	testq	%rsi, %rsi
	je	.L38
	testq	%r8, %r8
	jne	.L3
	imulq	$48, %rsi, %rsi
	leaq	32(%rdi), %rax
	movabsq	$9007199254740991, %r13
	leaq	(%rdx,%r11), %r9
	addq	%rax, %rsi
	.p2align 4,,10
	.p2align 3
.L5:
	movl	8(%rax), %edx
	testl	%edx, %edx
	jne	.L4
	movq	%r9, %rdi
	xorq	%r8, %rdi
	addq	%r11, %rdi
	movq	%rdi, %rcx
	shrq	$30, %rcx
	xorq	%rdi, %rcx
	imulq	%r12, %rcx
	movq	%rcx, %rdx
	shrq	$27, %rdx
	xorq	%rcx, %rdx
	imulq	%rbx, %rdx
	movq	%rdx, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rdx
	andq	%r13, %rdx
	movq	%rdx, (%rax)
.L4:
	addq	$48, %rax
	addq	%r10, %r8
	cmpq	%rax, %rsi
	jne	.L5
.L38:
	leaq	-32(%rbp), %rsp
	popq	%rbx
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%rbp
	.cfi_remember_state
	.cfi_def_cfa 7, 8
	ret
.L3:
	.cfi_restore_state
	imulq	%r10, %r8
	leaq	-1(%rsi), %rax
	addq	%r11, %rdx
	cmpq	$14, %rax
	jbe	.L19
	movq	%rsi, %rcx
	movl	$16, %r9d
	leaq	32(%rdi), %rax
	vmovdqa64	.LC0(%rip), %zmm7
	shrq	$4, %rcx
	vpbroadcastq	%r9, %zmm11
	movl	$8, %r9d
	imulq	$768, %rcx, %rcx
	vpbroadcastq	%r9, %zmm10
	movabsq	$9007199254740991, %r9
	vpbroadcastq	%rdx, %zmm9
	vpbroadcastq	%r8, %zmm8
	vpbroadcastq	%r10, %zmm5
	vpbroadcastq	%r11, %zmm2
	vpbroadcastq	%r12, %zmm4
	vpbroadcastq	%rbx, %zmm3
	addq	%rax, %rcx
	vpbroadcastq	%r9, %zmm6
	.p2align 4,,10
	.p2align 3
.L7:
	vmovdqa64	%zmm7, %zmm0
	movq	384(%rax), %rbx
	addq	$768, %rax
	vpaddq	%zmm11, %zmm7, %zmm7
	vpmullq	%zmm5, %zmm0, %zmm1
	vpaddq	%zmm10, %zmm0, %zmm0
	vpmullq	%zmm5, %zmm0, %zmm0
	movq	%rbx, -56(%rsp)
	movq	-336(%rax), %rbx
	movq	%rbx, -48(%rsp)
	movq	-288(%rax), %rbx
	vpxorq	%zmm9, %zmm1, %zmm1
	movq	%rbx, -40(%rsp)
	movq	-240(%rax), %rbx
	vpaddq	%zmm2, %zmm1, %zmm1
	vpxorq	%zmm9, %zmm0, %zmm0
	vpaddq	%zmm2, %zmm0, %zmm0
	vpsrlq	$30, %zmm1, %zmm13
	movq	%rbx, -32(%rsp)
	movq	-192(%rax), %rbx
	vpxorq	%zmm1, %zmm13, %zmm13
	vpsrlq	$30, %zmm0, %zmm1
	vpxorq	%zmm0, %zmm1, %zmm1
	vpmullq	%zmm4, %zmm13, %zmm13
	movq	%rbx, -24(%rsp)
	movq	-144(%rax), %rbx
	vpmullq	%zmm4, %zmm1, %zmm1
	movq	%rbx, -16(%rsp)
	movq	-96(%rax), %rbx
	movq	%rbx, -8(%rsp)
	movq	-48(%rax), %rbx
	vpsrlq	$27, %zmm13, %zmm12
	vpsrlq	$27, %zmm1, %zmm0
	vpxorq	%zmm13, %zmm12, %zmm12
	movq	%rbx, (%rsp)
	vpxorq	%zmm1, %zmm0, %zmm0
	vmovd	-88(%rax), %xmm1
	vpmullq	%zmm3, %zmm12, %zmm12
	vpinsrd	$1, -40(%rax), %xmm1, %xmm1
	vpmullq	%zmm3, %zmm0, %zmm0
	vpsrlq	$31, %zmm0, %zmm14
	vpxorq	%zmm0, %zmm14, %zmm14
	vmovd	-184(%rax), %xmm0
	vpinsrd	$1, -136(%rax), %xmm0, %xmm0
	vpunpcklqdq	%xmm1, %xmm0, %xmm1
	vmovd	-280(%rax), %xmm0
	vpinsrd	$1, -232(%rax), %xmm0, %xmm13
	vmovd	-376(%rax), %xmm0
	vpinsrd	$1, -328(%rax), %xmm0, %xmm0
	vpunpcklqdq	%xmm13, %xmm0, %xmm0
	vinserti128	$0x1, %xmm1, %ymm0, %ymm1
	vmovd	-472(%rax), %xmm0
	vpinsrd	$1, -424(%rax), %xmm0, %xmm13
	vmovd	-568(%rax), %xmm0
	vpinsrd	$1, -520(%rax), %xmm0, %xmm0
	vpunpcklqdq	%xmm13, %xmm0, %xmm13
	vmovd	-664(%rax), %xmm0
	vpinsrd	$1, -616(%rax), %xmm0, %xmm15
	vmovd	-760(%rax), %xmm0
	vpinsrd	$1, -712(%rax), %xmm0, %xmm0
	movq	-768(%rax), %rbx
	vpunpcklqdq	%xmm15, %xmm0, %xmm0
	movq	%rbx, -120(%rsp)
	movq	-720(%rax), %rbx
	vinserti128	$0x1, %xmm13, %ymm0, %ymm0
	vinserti64x4	$0x1, %ymm1, %zmm0, %zmm0
	movq	%rbx, -112(%rsp)
	movq	-672(%rax), %rbx
	vptestnmd	%zmm0, %zmm0, %k1
	vpsrlq	$31, %zmm12, %zmm0
	vpxorq	%zmm12, %zmm0, %zmm0
	movq	%rbx, -104(%rsp)
	movq	-624(%rax), %rbx
	movq	%rbx, -96(%rsp)
	movq	-576(%rax), %rbx
	movq	%rbx, -88(%rsp)
	movq	-528(%rax), %rbx
	movq	%rbx, -80(%rsp)
	movq	-480(%rax), %rbx
	movq	%rbx, -72(%rsp)
	movq	-432(%rax), %rbx
	movq	%rbx, -64(%rsp)
	vmovdqa64	-120(%rsp), %zmm1
	vpandq	%zmm6, %zmm0, %zmm1{%k1}
	vmovdqa64	-56(%rsp), %zmm0
	kshiftrw	$8, %k1, %k1
	vpaddq	%zmm2, %zmm1, %zmm1
	vpandq	%zmm6, %zmm14, %zmm0{%k1}
	vpxorq	%zmm8, %zmm1, %zmm1
	vpaddq	%zmm2, %zmm0, %zmm0
	vpaddq	%zmm2, %zmm1, %zmm1
	vpxorq	%zmm8, %zmm0, %zmm0
	vpsrlq	$30, %zmm1, %zmm12
	vpaddq	%zmm2, %zmm0, %zmm0
	vpxorq	%zmm1, %zmm12, %zmm12
	vpsrlq	$30, %zmm0, %zmm1
	vpmullq	%zmm4, %zmm12, %zmm12
	vpxorq	%zmm0, %zmm1, %zmm1
	vpmullq	%zmm4, %zmm1, %zmm1
	vpsrlq	$27, %zmm12, %zmm0
	vpxorq	%zmm12, %zmm0, %zmm0
	vpsrlq	$27, %zmm1, %zmm12
	vpmullq	%zmm3, %zmm0, %zmm0
	vpxorq	%zmm1, %zmm12, %zmm12
	vmovdqa64	%zmm6, %zmm1
	vpmullq	%zmm3, %zmm12, %zmm12
	vpsrlq	$31, %zmm0, %zmm13
	vpternlogq	$96, %zmm13, %zmm0, %zmm1
	vmovdqa64	%zmm6, %zmm0
	vpsrlq	$31, %zmm12, %zmm13
	vmovq	%xmm1, -768(%rax)
	vpextrq	$1, %xmm1, -720(%rax)
	vpternlogq	$96, %zmm13, %zmm12, %zmm0
	vpextrq	$1, %xmm0, -336(%rax)
	valignq	$3, %ymm1, %ymm1, %ymm12
	vmovq	%xmm0, -384(%rax)
	vextracti64x2	$1, %ymm1, %xmm13
	vextracti64x4	$0x1, %zmm1, %ymm1
	vmovq	%xmm1, -576(%rax)
	vpextrq	$1, %xmm1, -528(%rax)
	vmovq	%xmm12, -624(%rax)
	vextracti64x2	$1, %ymm1, %xmm12
	vmovq	%xmm13, -672(%rax)
	valignq	$3, %ymm1, %ymm1, %ymm1
	vmovq	%xmm12, -480(%rax)
	vmovq	%xmm1, -432(%rax)
	valignq	$3, %ymm0, %ymm0, %ymm1
	vextracti64x2	$1, %ymm0, %xmm12
	vextracti64x4	$0x1, %zmm0, %ymm0
	vmovq	%xmm0, -192(%rax)
	vpextrq	$1, %xmm0, -144(%rax)
	vmovq	%xmm1, -240(%rax)
	vextracti64x2	$1, %ymm0, %xmm1
	vmovq	%xmm12, -288(%rax)
	valignq	$3, %ymm0, %ymm0, %ymm0
	vmovq	%xmm1, -96(%rax)
	vmovq	%xmm0, -48(%rax)
	cmpq	%rax, %rcx
	jne	.L7
	movq	%rsi, %r9
	andq	$-16, %r9
	testb	$15, %sil
	je	.L37
.L6:
	movq	%rsi, %r10
	subq	%r9, %r10
	leaq	-1(%r10), %rax
	cmpq	$6, %rax
	jbe	.L9
	vpbroadcastq	%r9, %ymm0
	vpbroadcastq	%rdx, %ymm2
	leaq	(%r9,%r9,2), %rax
	movabsq	$-3335678366873096957, %r11
	vpbroadcastq	%r11, %ymm4
	salq	$4, %rax
	vpbroadcastq	%r8, %ymm5
	vpaddq	.LC8(%rip), %ymm0, %ymm1
	vpaddq	.LC11(%rip), %ymm0, %ymm0
	leaq	40(%rdi,%rax), %rcx
	movabsq	$-7046029254386353131, %r11
	vpmullq	%ymm4, %ymm1, %ymm1
	vpbroadcastq	%r11, %ymm3
	leaq	32(%rdi,%rax), %rax
	movabsq	$-4658895280553007687, %r11
	vpmullq	%ymm4, %ymm0, %ymm0
	vpbroadcastq	%r11, %ymm6
	movabsq	$-7723592293110705685, %r11
	movq	192(%rax), %rbx
	movq	%rbx, -56(%rsp)
	movq	240(%rax), %rbx
	vpxor	%ymm2, %ymm1, %ymm1
	movq	%rbx, -48(%rsp)
	movq	288(%rax), %rbx
	vpxor	%ymm2, %ymm0, %ymm0
	vpaddq	%ymm3, %ymm1, %ymm1
	vpaddq	%ymm3, %ymm0, %ymm0
	vpsrlq	$30, %ymm1, %ymm4
	movq	%rbx, -40(%rsp)
	movq	336(%rax), %rbx
	vpsrlq	$30, %ymm0, %ymm2
	vpxor	%ymm1, %ymm4, %ymm4
	vpxor	%ymm0, %ymm2, %ymm2
	vpmullq	%ymm6, %ymm4, %ymm4
	movq	%rbx, -32(%rsp)
	vpmullq	%ymm6, %ymm2, %ymm2
	vpsrlq	$27, %ymm4, %ymm1
	vpsrlq	$27, %ymm2, %ymm0
	vpxor	%ymm4, %ymm1, %ymm1
	vpbroadcastq	%r11, %ymm4
	vpxor	%ymm2, %ymm0, %ymm0
	vpmullq	%ymm4, %ymm1, %ymm1
	vmovd	288(%rcx), %xmm2
	vpinsrd	$1, 336(%rcx), %xmm2, %xmm2
	vpmullq	%ymm4, %ymm0, %ymm0
	vpsrlq	$31, %ymm0, %ymm7
	vpxor	%ymm0, %ymm7, %ymm7
	vmovd	192(%rcx), %xmm0
	vpinsrd	$1, 240(%rcx), %xmm0, %xmm0
	vpunpcklqdq	%xmm2, %xmm0, %xmm2
	vmovd	96(%rcx), %xmm0
	vpinsrd	$1, 144(%rcx), %xmm0, %xmm8
	vmovd	(%rcx), %xmm0
	vpinsrd	$1, 48(%rcx), %xmm0, %xmm0
	movq	(%rax), %rcx
	vpunpcklqdq	%xmm8, %xmm0, %xmm0
	movq	%rcx, -120(%rsp)
	movq	48(%rax), %rcx
	vinserti128	$0x1, %xmm2, %ymm0, %ymm0
	vptestnmd	%ymm0, %ymm0, %k1
	vpsrlq	$31, %ymm1, %ymm0
	movq	%rcx, -112(%rsp)
	movq	96(%rax), %rcx
	vpxor	%ymm1, %ymm0, %ymm0
	movq	%rcx, -104(%rsp)
	movq	144(%rax), %rcx
	movq	%rcx, -96(%rsp)
	vmovdqa	-120(%rsp), %ymm1
	movabsq	$9007199254740991, %rcx
	vpbroadcastq	%rcx, %ymm2
	vpandq	%ymm2, %ymm0, %ymm1{%k1}
	vmovdqa	-56(%rsp), %ymm0
	kshiftrb	$4, %k1, %k1
	vpaddq	%ymm3, %ymm1, %ymm1
	vpandq	%ymm2, %ymm7, %ymm0{%k1}
	vpxor	%ymm5, %ymm1, %ymm1
	vpaddq	%ymm3, %ymm0, %ymm0
	vpaddq	%ymm3, %ymm1, %ymm1
	vpxor	%ymm5, %ymm0, %ymm0
	vpsrlq	$30, %ymm1, %ymm5
	vpaddq	%ymm3, %ymm0, %ymm0
	vpxor	%ymm1, %ymm5, %ymm5
	vpsrlq	$30, %ymm0, %ymm3
	vpmullq	%ymm6, %ymm5, %ymm5
	vpxor	%ymm0, %ymm3, %ymm3
	vpmullq	%ymm6, %ymm3, %ymm3
	vpsrlq	$27, %ymm5, %ymm1
	vpxor	%ymm5, %ymm1, %ymm1
	vpsrlq	$27, %ymm3, %ymm0
	vpmullq	%ymm4, %ymm1, %ymm1
	vpxor	%ymm3, %ymm0, %ymm0
	vmovdqa	%ymm2, %ymm3
	vpmullq	%ymm4, %ymm0, %ymm0
	vpsrlq	$31, %ymm1, %ymm4
	vpternlogq	$96, %ymm4, %ymm1, %ymm3
	vpsrlq	$31, %ymm0, %ymm1
	vmovq	%xmm3, (%rax)
	vpextrq	$1, %xmm3, 48(%rax)
	vpternlogq	$96, %ymm1, %ymm0, %ymm2
	vextracti64x2	$1, %ymm3, %xmm0
	valignq	$3, %ymm3, %ymm3, %ymm3
	vmovq	%xmm0, 96(%rax)
	vmovq	%xmm3, 144(%rax)
	vextracti64x2	$1, %ymm2, %xmm0
	vmovq	%xmm2, 192(%rax)
	vpextrq	$1, %xmm2, 240(%rax)
	valignq	$3, %ymm2, %ymm2, %ymm2
	vmovq	%xmm0, 288(%rax)
	vmovq	%xmm2, 336(%rax)
	movq	%r10, %rax
	andq	$-8, %rax
	addq	%rax, %r9
	andl	$7, %r10d
	je	.L37
.L9:
	imulq	$48, %r9, %r11
	leaq	(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	je	.L41
.L11:
	movabsq	$-7046029254386353131, %r10
	movq	32(%rbx), %rax
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	leaq	1(%r9), %rax
	cmpq	%rsi, %rax
	jnb	.L37
	leaq	48(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	je	.L42
.L12:
	movabsq	$-7046029254386353131, %r10
	movq	32(%rbx), %rax
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	leaq	2(%r9), %rax
	cmpq	%rsi, %rax
	jnb	.L37
	leaq	96(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	je	.L43
.L13:
	movabsq	$-7046029254386353131, %r10
	movq	32(%rbx), %rax
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	leaq	3(%r9), %rax
	cmpq	%rsi, %rax
	jnb	.L37
	leaq	144(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	je	.L44
.L14:
	movabsq	$-7046029254386353131, %r10
	movq	32(%rbx), %rax
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	leaq	4(%r9), %rax
	cmpq	%rsi, %rax
	jnb	.L37
	leaq	192(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	je	.L45
.L15:
	movabsq	$-7046029254386353131, %r10
	movq	32(%rbx), %rax
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	leaq	5(%r9), %rax
	cmpq	%rsi, %rax
	jnb	.L37
	leaq	240(%rdi,%r11), %rbx
	cmpl	$0, 40(%rbx)
	jne	.L16
	movabsq	$-3335678366873096957, %r14
	imulq	%r14, %rax
	xorq	%rdx, %rax
	addq	%r10, %rax
	movq	%rax, %r10
	shrq	$30, %r10
	xorq	%rax, %r10
	imulq	%r13, %r10
	movq	%r10, %rax
	shrq	$27, %rax
	xorq	%r10, %rax
	imulq	%r12, %rax
	movq	%rax, %r10
	shrq	$31, %r10
	xorq	%r10, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
.L16:
	movq	32(%rbx), %rax
	addq	$6, %r9
	movabsq	$-7046029254386353131, %r10
	movabsq	$-4658895280553007687, %r13
	movabsq	$-7723592293110705685, %r12
	addq	%r10, %rax
	xorq	%r8, %rax
	addq	%r10, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	imulq	%r13, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	imulq	%r12, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	cmpq	%rsi, %r9
	jnb	.L37
	leaq	288(%rdi,%r11), %rsi
	cmpl	$0, 40(%rsi)
	jne	.L18
	movabsq	$-3335678366873096957, %rax
	imulq	%rax, %r9
	xorq	%rdx, %r9
	leaq	(%r9,%r10), %rax
	movq	%rax, %rdx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	imulq	%r13, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	imulq	%r12, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rdx, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rsi)
.L18:
	movabsq	$-7046029254386353131, %rdx
	movq	32(%rsi), %rax
	addq	%rdx, %rax
	xorq	%r8, %rax
	addq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	movabsq	$-7723592293110705685, %rdx
	imulq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rdx, %rax
	movabsq	$9007199254740991, %rdx
	andq	%rdx, %rax
	movq	%rax, 32(%rsi)
	vzeroupper
	jmp	.L38
.L37:
	vzeroupper
	jmp	.L38
.L41:
	movabsq	$-3335678366873096957, %rax
	movabsq	$-7046029254386353131, %rcx
	imulq	%r9, %rax
	xorq	%rdx, %rax
	addq	%rcx, %rax
	movq	%rax, %rcx
	shrq	$30, %rcx
	xorq	%rax, %rcx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	movabsq	$-7723592293110705685, %rcx
	imulq	%rcx, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	movabsq	$9007199254740991, %rcx
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	jmp	.L11
.L42:
	movabsq	$-3335678366873096957, %r14
	imulq	%r14, %rax
	xorq	%rdx, %rax
	addq	%r10, %rax
	movq	%rax, %r10
	shrq	$30, %r10
	xorq	%rax, %r10
	imulq	%r13, %r10
	movq	%r10, %rax
	shrq	$27, %rax
	xorq	%r10, %rax
	imulq	%r12, %rax
	movq	%rax, %r10
	shrq	$31, %r10
	xorq	%r10, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	jmp	.L12
.L43:
	movabsq	$-3335678366873096957, %r14
	imulq	%r14, %rax
	xorq	%rdx, %rax
	addq	%r10, %rax
	movq	%rax, %r10
	shrq	$30, %r10
	xorq	%rax, %r10
	imulq	%r13, %r10
	movq	%r10, %rax
	shrq	$27, %rax
	xorq	%r10, %rax
	imulq	%r12, %rax
	movq	%rax, %r10
	shrq	$31, %r10
	xorq	%r10, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	jmp	.L13
.L44:
	movabsq	$-3335678366873096957, %r14
	imulq	%r14, %rax
	xorq	%rdx, %rax
	addq	%r10, %rax
	movq	%rax, %r10
	shrq	$30, %r10
	xorq	%rax, %r10
	imulq	%r13, %r10
	movq	%r10, %rax
	shrq	$27, %rax
	xorq	%r10, %rax
	imulq	%r12, %rax
	movq	%rax, %r10
	shrq	$31, %r10
	xorq	%r10, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	jmp	.L14
.L45:
	movabsq	$-3335678366873096957, %r14
	imulq	%r14, %rax
	xorq	%rdx, %rax
	addq	%r10, %rax
	movq	%rax, %r10
	shrq	$30, %r10
	xorq	%rax, %r10
	imulq	%r13, %r10
	movq	%r10, %rax
	shrq	$27, %rax
	xorq	%r10, %rax
	imulq	%r12, %rax
	movq	%rax, %r10
	shrq	$31, %r10
	xorq	%r10, %rax
	andq	%rcx, %rax
	movq	%rax, 32(%rbx)
	jmp	.L15
.L19:
	xorl	%r9d, %r9d
	jmp	.L6
	.cfi_endproc
.LFE30:
	.size	derive_seeds, .-derive_seeds
	.p2align 4
	.type	cmp_double, @function
cmp_double:
.LFB37:
	.cfi_startproc
	vmovsd	(%rdi), %xmm0
	vmovsd	(%rsi), %xmm1
	xorl	%eax, %eax
	vcomisd	%xmm1, %xmm0
	seta	%al
	xorl	%edx, %edx
	vcomisd	%xmm0, %xmm1
	seta	%dl
	subl	%edx, %eax
	ret
	.cfi_endproc
.LFE37:
	.size	cmp_double, .-cmp_double
	.p2align 4
	.type	host_time_call, @function
host_time_call:
.LFB17:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset 12, -16
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset 6, -24
	movq	%rsi, %rbp
	pushq	%rbx
	.cfi_def_cfa_offset 32
	.cfi_offset 3, -32
	movq	%rdi, %rbx
	movl	$1, %edi
	subq	$32, %rsp
	.cfi_def_cfa_offset 64
	leaq	16(%rsp), %r12
	movq	%r12, %rsi
	call	clock_gettime@PLT
	vxorps	%xmm1, %xmm1, %xmm1
	movq	%rbp, %rdi
	vcvtsi2sdq	24(%rsp), %xmm1, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	16(%rsp), %xmm1, %xmm2
	vaddsd	%xmm2, %xmm0, %xmm3
	vmovsd	%xmm3, 8(%rsp)
	call	*%rbx
	movq	%r12, %rsi
	movl	$1, %edi
	call	clock_gettime@PLT
	vxorps	%xmm1, %xmm1, %xmm1
	vcvtsi2sdq	24(%rsp), %xmm1, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	16(%rsp), %xmm1, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vsubsd	8(%rsp), %xmm0, %xmm0
	addq	$32, %rsp
	.cfi_def_cfa_offset 32
	popq	%rbx
	.cfi_def_cfa_offset 24
	popq	%rbp
	.cfi_def_cfa_offset 16
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
.LFE17:
	.size	host_time_call, .-host_time_call
	.section	.rodata.str1.1,"aMS",@progbits,1
.LC16:
	.string	"%s: "
.LC17:
	.string	"%s"
.LC18:
	.string	"output check failed"
.LC19:
	.string	"element %zu"
	.section	.rodata.str1.8,"aMS",@progbits,1
	.align 8
.LC21:
	.string	"%s = %.9g, expected %.9g (|err| %.3g > tol %.3g); %zu of %zu elements out of tolerance"
	.text
	.p2align 4
	.type	describe_failure, @function
describe_failure:
.LFB35:
	.cfi_startproc
	pushq	%r14
	.cfi_def_cfa_offset 16
	.cfi_offset 14, -16
	xorl	%eax, %eax
	pushq	%r13
	.cfi_def_cfa_offset 24
	.cfi_offset 13, -24
	pushq	%r12
	.cfi_def_cfa_offset 32
	.cfi_offset 12, -32
	movq	%rdx, %r12
	leaq	.LC16(%rip), %rdx
	pushq	%rbp
	.cfi_def_cfa_offset 40
	.cfi_offset 6, -40
	leaq	16(%rdi), %rbp
	pushq	%rbx
	.cfi_def_cfa_offset 48
	.cfi_offset 3, -48
	movq	%rbp, %rdi
	movq	%rcx, %rbx
	movq	%rsi, %rcx
	movl	$1024, %esi
	subq	$144, %rsp
	.cfi_def_cfa_offset 192
	vmovsd	%xmm0, (%rsp)
	vmovsd	%xmm1, 8(%rsp)
	call	snprintf@PLT
	cmpb	$0, 64(%rbx)
	cltq
	jne	.L56
	movl	$1024, %r13d
	addq	%rax, %rbp
	subq	%rax, %r13
	cmpq	$0, 16(%rbx)
	je	.L57
	movq	56+ks_problem(%rip), %rax
	movq	24(%rbx), %rsi
	leaq	16(%rsp), %r14
	testq	%rax, %rax
	je	.L52
	movl	$128, %ecx
	movq	%r14, %rdx
	movq	%r12, %rdi
	call	*%rax
.L53:
	vmovsd	40(%rbx), %xmm1
	movq	%r14, %rcx
	movq	%r13, %rsi
	movq	%rbp, %rdi
	vmovsd	32(%rbx), %xmm0
	movq	8(%rbx), %r9
	leaq	.LC21(%rip), %rdx
	movl	$4, %eax
	vmovq	.LC20(%rip), %xmm4
	movq	16(%rbx), %r8
	vsubsd	%xmm1, %xmm0, %xmm2
	vandpd	%xmm4, %xmm1, %xmm3
	vmulsd	(%rsp), %xmm3, %xmm3
	vaddsd	8(%rsp), %xmm3, %xmm3
	vandpd	%xmm4, %xmm2, %xmm2
	call	snprintf@PLT
	addq	$144, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 48
	popq	%rbx
	.cfi_def_cfa_offset 40
	popq	%rbp
	.cfi_def_cfa_offset 32
	popq	%r12
	.cfi_def_cfa_offset 24
	popq	%r13
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	ret
	.p2align 4,,10
	.p2align 3
.L56:
	.cfi_restore_state
	addq	$144, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 48
	movl	$1024, %esi
	leaq	0(%rbp,%rax), %rdi
	leaq	64(%rbx), %rcx
	subq	%rax, %rsi
	popq	%rbx
	.cfi_def_cfa_offset 40
	xorl	%eax, %eax
	popq	%rbp
	.cfi_def_cfa_offset 32
	leaq	.LC17(%rip), %rdx
	popq	%r12
	.cfi_def_cfa_offset 24
	popq	%r13
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	jmp	snprintf@PLT
	.p2align 4,,10
	.p2align 3
.L57:
	.cfi_restore_state
	addq	$144, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 48
	movq	%r13, %rsi
	movq	%rbp, %rdi
	xorl	%eax, %eax
	popq	%rbx
	.cfi_def_cfa_offset 40
	leaq	.LC18(%rip), %rdx
	popq	%rbp
	.cfi_def_cfa_offset 32
	popq	%r12
	.cfi_def_cfa_offset 24
	popq	%r13
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	jmp	snprintf@PLT
	.p2align 4,,10
	.p2align 3
.L52:
	.cfi_restore_state
	movq	%rsi, %rcx
	leaq	.LC19(%rip), %rdx
	movq	%r14, %rdi
	xorl	%eax, %eax
	movl	$128, %esi
	call	snprintf@PLT
	jmp	.L53
	.cfi_endproc
.LFE35:
	.size	describe_failure, .-describe_failure
	.section	.rodata.str1.1
.LC22:
	.string	"runner: "
	.text
	.p2align 4
	.type	die, @function
die:
.LFB14:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movq	%rsi, %rbp
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset 3, -24
	movl	%edi, %ebx
	subq	$216, %rsp
	.cfi_def_cfa_offset 240
	movq	%rdx, 48(%rsp)
	movq	%rcx, 56(%rsp)
	movq	%r8, 64(%rsp)
	movq	%r9, 72(%rsp)
	testb	%al, %al
	je	.L60
	vmovaps	%xmm0, 80(%rsp)
	vmovaps	%xmm1, 96(%rsp)
	vmovaps	%xmm2, 112(%rsp)
	vmovaps	%xmm3, 128(%rsp)
	vmovaps	%xmm4, 144(%rsp)
	vmovaps	%xmm5, 160(%rsp)
	vmovaps	%xmm6, 176(%rsp)
	vmovaps	%xmm7, 192(%rsp)
.L60:
	movq	stderr(%rip), %rcx
	movl	$8, %edx
	movl	$1, %esi
	leaq	.LC22(%rip), %rdi
	call	fwrite@PLT
	movq	stderr(%rip), %rdi
	leaq	8(%rsp), %rdx
	movq	%rbp, %rsi
	leaq	240(%rsp), %rax
	movl	$16, 8(%rsp)
	movq	%rax, 16(%rsp)
	leaq	32(%rsp), %rax
	movl	$48, 12(%rsp)
	movq	%rax, 24(%rsp)
	call	vfprintf@PLT
	movq	stderr(%rip), %rsi
	movl	$10, %edi
	call	fputc@PLT
	movl	%ebx, %edi
	call	exit@PLT
	.cfi_endproc
.LFE14:
	.size	die, .-die
	.section	.rodata.str1.1
.LC23:
	.string	"\\%c"
.LC24:
	.string	"\\u%04x"
	.text
	.p2align 4
	.type	json_str, @function
json_str:
.LFB43:
	.cfi_startproc
	pushq	%r13
	.cfi_def_cfa_offset 16
	.cfi_offset 13, -16
	movq	%rsi, %r13
	movq	%rdi, %rsi
	pushq	%r12
	.cfi_def_cfa_offset 24
	.cfi_offset 12, -24
	pushq	%rbp
	.cfi_def_cfa_offset 32
	.cfi_offset 6, -32
	pushq	%rbx
	.cfi_def_cfa_offset 40
	.cfi_offset 3, -40
	movq	%rdi, %rbx
	movl	$34, %edi
	subq	$8, %rsp
	.cfi_def_cfa_offset 48
	call	fputc@PLT
	movzbl	0(%r13), %edx
	testb	%dl, %dl
	je	.L63
	leaq	.LC23(%rip), %r12
	leaq	.LC24(%rip), %rbp
	jmp	.L68
	.p2align 4,,10
	.p2align 3
.L75:
	movsbl	%dl, %edx
	movq	%rbp, %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
.L66:
	movzbl	1(%r13), %edx
	addq	$1, %r13
	testb	%dl, %dl
	je	.L63
.L68:
	cmpb	$34, %dl
	je	.L69
	cmpb	$92, %dl
	je	.L69
	cmpb	$31, %dl
	jbe	.L75
	movzbl	%dl, %edi
	movq	%rbx, %rsi
	addq	$1, %r13
	call	fputc@PLT
	movzbl	0(%r13), %edx
	testb	%dl, %dl
	jne	.L68
.L63:
	addq	$8, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 40
	movq	%rbx, %rsi
	movl	$34, %edi
	popq	%rbx
	.cfi_def_cfa_offset 32
	popq	%rbp
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%r13
	.cfi_def_cfa_offset 8
	jmp	fputc@PLT
	.p2align 4,,10
	.p2align 3
.L69:
	.cfi_restore_state
	movq	%r12, %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	jmp	.L66
	.cfi_endproc
.LFE43:
	.size	json_str, .-json_str
	.p2align 4
	.type	parse_u64, @function
parse_u64:
.LFB24:
	.cfi_startproc
	movzbl	(%rdi), %eax
	subl	$48, %eax
	cmpb	$9, %al
	ja	.L83
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset 12, -16
	movq	%rsi, %r12
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset 6, -24
	pushq	%rbx
	.cfi_def_cfa_offset 32
	.cfi_offset 3, -32
	movq	%rdi, %rbx
	subq	$16, %rsp
	.cfi_def_cfa_offset 48
	call	__errno_location@PLT
	leaq	8(%rsp), %rsi
	movl	$10, %edx
	movq	%rbx, %rdi
	movl	$0, (%rax)
	movq	%rax, %rbp
	call	strtoull@PLT
	movq	%rax, (%r12)
	movl	0(%rbp), %eax
	testl	%eax, %eax
	jne	.L79
	movq	8(%rsp), %rax
	movzbl	(%rax), %eax
	negb	%al
	sbbl	%eax, %eax
.L76:
	addq	$16, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 32
	popq	%rbx
	.cfi_def_cfa_offset 24
	popq	%rbp
	.cfi_def_cfa_offset 16
	popq	%r12
	.cfi_def_cfa_offset 8
	ret
	.p2align 4,,10
	.p2align 3
.L79:
	.cfi_restore_state
	movl	$-1, %eax
	jmp	.L76
.L83:
	.cfi_def_cfa_offset 8
	.cfi_restore 3
	.cfi_restore 6
	.cfi_restore 12
	orl	$-1, %eax
	ret
	.cfi_endproc
.LFE24:
	.size	parse_u64, .-parse_u64
	.section	.rodata.str1.1
.LC25:
	.string	"out of memory"
	.text
	.p2align 4
	.type	xcalloc, @function
xcalloc:
.LFB15:
	.cfi_startproc
	subq	$8, %rsp
	.cfi_def_cfa_offset 16
	movl	$1, %eax
	testq	%rdi, %rdi
	cmove	%rax, %rdi
	call	calloc@PLT
	testq	%rax, %rax
	je	.L87
	addq	$8, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 8
	ret
.L87:
	.cfi_restore_state
	leaq	.LC25(%rip), %rsi
	movl	$1, %edi
	call	die
	.cfi_endproc
.LFE15:
	.size	xcalloc, .-xcalloc
	.section	.rodata.str1.1
.LC26:
	.string	">="
.LC27:
	.string	">"
	.section	.rodata.str1.8
	.align 8
.LC30:
	.string	"bad %s '%s': expected a number %s %g"
	.text
	.p2align 4
	.type	parse_double.constprop.0, @function
parse_double.constprop.0:
.LFB52:
	.cfi_startproc
	pushq	%r13
	.cfi_def_cfa_offset 16
	.cfi_offset 13, -16
	movq	%rdi, %r13
	pushq	%r12
	.cfi_def_cfa_offset 24
	.cfi_offset 12, -24
	movl	%edx, %r12d
	pushq	%rbp
	.cfi_def_cfa_offset 32
	.cfi_offset 6, -32
	pushq	%rbx
	.cfi_def_cfa_offset 40
	.cfi_offset 3, -40
	movq	%rsi, %rbx
	subq	$24, %rsp
	.cfi_def_cfa_offset 64
	call	__errno_location@PLT
	leaq	8(%rsp), %rsi
	movq	%rbx, %rdi
	movl	$0, (%rax)
	movq	%rax, %rbp
	call	strtod@PLT
	cmpb	$0, (%rbx)
	je	.L89
	movq	8(%rsp), %rax
	cmpb	$0, (%rax)
	jne	.L89
	movl	0(%rbp), %eax
	testl	%eax, %eax
	jne	.L89
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vmovsd	.LC28(%rip), %xmm2
	vucomisd	%xmm1, %xmm2
	jb	.L89
	vxorpd	%xmm1, %xmm1, %xmm1
	vcomisd	%xmm0, %xmm1
	ja	.L89
	vucomisd	%xmm1, %xmm0
	movl	$0, %edx
	setnp	%al
	cmovne	%edx, %eax
	testb	%al, %al
	je	.L88
	andl	$1, %r12d
	jne	.L99
.L88:
	addq	$24, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 40
	popq	%rbx
	.cfi_def_cfa_offset 32
	popq	%rbp
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%r13
	.cfi_def_cfa_offset 8
	ret
.L99:
	.cfi_restore_state
	leaq	.LC27(%rip), %r8
.L90:
	movq	%rbx, %rcx
	movq	%r13, %rdx
	movl	$2, %edi
	movl	$1, %eax
	vxorpd	%xmm0, %xmm0, %xmm0
	leaq	.LC30(%rip), %rsi
	call	die
.L89:
	testl	%r12d, %r12d
	leaq	.LC26(%rip), %r8
	leaq	.LC27(%rip), %rax
	cmovne	%rax, %r8
	jmp	.L90
	.cfi_endproc
.LFE52:
	.size	parse_double.constprop.0, .-parse_double.constprop.0
	.section	.rodata.str1.8
	.align 8
.LC31:
	.string	"bad %s '%s': expected an integer from %ld to %ld"
	.text
	.p2align 4
	.type	parse_long, @function
parse_long:
.LFB25:
	.cfi_startproc
	pushq	%r14
	.cfi_def_cfa_offset 16
	.cfi_offset 14, -16
	movq	%rdx, %r14
	pushq	%r13
	.cfi_def_cfa_offset 24
	.cfi_offset 13, -24
	movq	%rdi, %r13
	pushq	%r12
	.cfi_def_cfa_offset 32
	.cfi_offset 12, -32
	movq	%rcx, %r12
	pushq	%rbp
	.cfi_def_cfa_offset 40
	.cfi_offset 6, -40
	pushq	%rbx
	.cfi_def_cfa_offset 48
	.cfi_offset 3, -48
	movq	%rsi, %rbx
	subq	$16, %rsp
	.cfi_def_cfa_offset 64
	movzbl	(%rsi), %eax
	subl	$48, %eax
	cmpb	$9, %al
	ja	.L102
	call	__errno_location@PLT
	movl	$10, %edx
	leaq	8(%rsp), %rsi
	movq	%rbx, %rdi
	movl	$0, (%rax)
	movq	%rax, %rbp
	call	strtoull@PLT
	movl	0(%rbp), %edx
	testl	%edx, %edx
	jne	.L102
	movq	8(%rsp), %rdx
	cmpb	$0, (%rdx)
	jne	.L102
	cmpq	%r14, %rax
	jb	.L102
	cmpq	%rax, %r12
	jb	.L102
	addq	$16, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 48
	popq	%rbx
	.cfi_def_cfa_offset 40
	popq	%rbp
	.cfi_def_cfa_offset 32
	popq	%r12
	.cfi_def_cfa_offset 24
	popq	%r13
	.cfi_def_cfa_offset 16
	popq	%r14
	.cfi_def_cfa_offset 8
	ret
	.p2align 4,,10
	.p2align 3
.L102:
	.cfi_restore_state
	movq	%r12, %r9
	movq	%r14, %r8
	movq	%rbx, %rcx
	movq	%r13, %rdx
	leaq	.LC31(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
	.cfi_endproc
.LFE25:
	.size	parse_long, .-parse_long
	.p2align 4
	.globl	ks_now
	.type	ks_now, @function
ks_now:
.LFB16:
	.cfi_startproc
	subq	$24, %rsp
	.cfi_def_cfa_offset 32
	movl	$1, %edi
	movq	%rsp, %rsi
	call	clock_gettime@PLT
	vxorps	%xmm1, %xmm1, %xmm1
	vcvtsi2sdq	8(%rsp), %xmm1, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	(%rsp), %xmm1, %xmm1
	addq	$24, %rsp
	.cfi_def_cfa_offset 8
	vaddsd	%xmm1, %xmm0, %xmm0
	ret
	.cfi_endproc
.LFE16:
	.size	ks_now, .-ks_now
	.p2align 4
	.globl	ks_rand_next
	.type	ks_rand_next, @function
ks_rand_next:
.LFB18:
	.cfi_startproc
	movabsq	$-7046029254386353131, %rdx
	addq	(%rdi), %rdx
	movq	%rdx, %rax
	movq	%rdx, (%rdi)
	shrq	$30, %rax
	xorq	%rdx, %rax
	movabsq	$-4658895280553007687, %rdx
	imulq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$27, %rdx
	xorq	%rax, %rdx
	movabsq	$-7723592293110705685, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$31, %rax
	xorq	%rdx, %rax
	ret
	.cfi_endproc
.LFE18:
	.size	ks_rand_next, .-ks_rand_next
	.p2align 4
	.globl	ks_seed_derive
	.type	ks_seed_derive, @function
ks_seed_derive:
.LFB19:
	.cfi_startproc
	movabsq	$-3335678366873096957, %rax
	movabsq	$-4658895280553007687, %rdx
	imulq	%rax, %rsi
	movabsq	$-7046029254386353131, %rax
	addq	%rax, %rdi
	xorq	%rdi, %rsi
	addq	%rax, %rsi
	movq	%rsi, %rax
	shrq	$30, %rax
	xorq	%rsi, %rax
	imulq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$27, %rdx
	xorq	%rax, %rdx
	movabsq	$-7723592293110705685, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$31, %rax
	xorq	%rdx, %rax
	ret
	.cfi_endproc
.LFE19:
	.size	ks_seed_derive, .-ks_seed_derive
	.p2align 4
	.globl	ks_fill_uniform_f32
	.type	ks_fill_uniform_f32, @function
ks_fill_uniform_f32:
.LFB20:
	.cfi_startproc
	movq	%rsi, %rcx
	vmovaps	%xmm0, %xmm7
	testq	%rsi, %rsi
	je	.L134
	leaq	-1(%rsi), %rax
	vsubss	%xmm0, %xmm1, %xmm1
	cmpq	$14, %rax
	jbe	.L119
	shrq	$4, %rsi
	vpbroadcastq	%rdx, %zmm4
	vbroadcastss	%xmm1, %zmm13
	movq	%rdi, %rax
	movabsq	$-8074031068348523331, %r9
	salq	$6, %rsi
	movabsq	$-2056003627924340400, %r8
	vpaddq	.LC32(%rip), %zmm4, %zmm4
	vpbroadcastq	%r9, %zmm8
	vpbroadcastq	%r8, %zmm9
	vbroadcastss	%xmm0, %zmm12
	addq	%rdi, %rsi
	movabsq	$-4658895280553007687, %r9
	movabsq	$-7046029254386353131, %r8
	vbroadcastss	.LC36(%rip), %zmm11
	vpbroadcastq	%r9, %zmm6
	vpbroadcastq	%r8, %zmm10
	movabsq	$-7723592293110705685, %r9
	vpbroadcastq	%r9, %zmm5
	.p2align 4,,10
	.p2align 3
.L113:
	vmovdqa64	%zmm4, %zmm2
	addq	$64, %rax
	vpaddq	%zmm9, %zmm4, %zmm4
	vpaddq	%zmm10, %zmm2, %zmm0
	vpaddq	%zmm8, %zmm2, %zmm2
	vpsrlq	$30, %zmm0, %zmm3
	vpxorq	%zmm0, %zmm3, %zmm3
	vpsrlq	$30, %zmm2, %zmm0
	vpmullq	%zmm6, %zmm3, %zmm3
	vpxorq	%zmm2, %zmm0, %zmm0
	vpmullq	%zmm6, %zmm0, %zmm0
	vpsrlq	$27, %zmm3, %zmm2
	vpxorq	%zmm3, %zmm2, %zmm2
	vpsrlq	$27, %zmm0, %zmm3
	vpmullq	%zmm5, %zmm2, %zmm2
	vpxorq	%zmm0, %zmm3, %zmm3
	vpmullq	%zmm5, %zmm3, %zmm3
	vpsrlq	$31, %zmm2, %zmm0
	vpxorq	%zmm2, %zmm0, %zmm0
	vpsrlq	$31, %zmm3, %zmm2
	vpxorq	%zmm3, %zmm2, %zmm2
	vpsrlq	$40, %zmm0, %zmm0
	vpsrlq	$40, %zmm2, %zmm2
	vcvtqq2ps	%zmm0, %ymm0
	vcvtqq2ps	%zmm2, %ymm2
	vinsertf64x4	$0x1, %ymm2, %zmm0, %zmm0
	vmulps	%zmm11, %zmm0, %zmm0
	vmulps	%zmm13, %zmm0, %zmm0
	vaddps	%zmm12, %zmm0, %zmm0
	vmovups	%zmm0, -64(%rax)
	cmpq	%rsi, %rax
	jne	.L113
	movq	%rcx, %rax
	andq	$-16, %rax
	imulq	%rax, %r8
	addq	%r8, %rdx
	testb	$15, %cl
	je	.L133
.L112:
	movq	%rcx, %r8
	subq	%rax, %r8
	leaq	-1(%r8), %rsi
	cmpq	$6, %rsi
	jbe	.L117
	movabsq	$-4658895280553007687, %rsi
	vpbroadcastq	%rdx, %ymm2
	vpaddq	.LC37(%rip), %ymm2, %ymm0
	movabsq	$-7046029254386353131, %r9
	vpaddq	.LC38(%rip), %ymm2, %ymm2
	vpbroadcastq	%rsi, %ymm4
	movabsq	$-7723592293110705685, %rsi
	vpsrlq	$30, %ymm0, %ymm3
	vpxor	%ymm0, %ymm3, %ymm3
	vpsrlq	$30, %ymm2, %ymm0
	vpmullq	%ymm4, %ymm3, %ymm3
	vpxor	%ymm2, %ymm0, %ymm0
	vpmullq	%ymm4, %ymm0, %ymm0
	vpbroadcastq	%rsi, %ymm4
	movq	%r8, %rsi
	andq	$-8, %rsi
	vpsrlq	$27, %ymm3, %ymm2
	vpxor	%ymm3, %ymm2, %ymm2
	vpsrlq	$27, %ymm0, %ymm3
	vpmullq	%ymm4, %ymm2, %ymm2
	vpxor	%ymm0, %ymm3, %ymm3
	vpmullq	%ymm4, %ymm3, %ymm3
	vpsrlq	$31, %ymm2, %ymm0
	vpxor	%ymm2, %ymm0, %ymm0
	vpsrlq	$31, %ymm3, %ymm2
	vpxor	%ymm3, %ymm2, %ymm2
	vpsrlq	$40, %ymm0, %ymm0
	vpsrlq	$40, %ymm2, %ymm2
	vcvtqq2psy	%ymm0, %xmm0
	vcvtqq2psy	%ymm2, %xmm2
	vinsertf128	$0x1, %xmm2, %ymm0, %ymm0
	vbroadcastss	%xmm1, %ymm2
	vmulps	.LC36(%rip){1to8}, %ymm0, %ymm0
	vmulps	%ymm2, %ymm0, %ymm0
	vbroadcastss	%xmm7, %ymm2
	vaddps	%ymm2, %ymm0, %ymm0
	vmovups	%ymm0, (%rdi,%rax,4)
	addq	%rsi, %rax
	imulq	%r9, %rsi
	addq	%rsi, %rdx
	andl	$7, %r8d
	je	.L133
.L117:
	movabsq	$-7046029254386353131, %rsi
	vxorps	%xmm0, %xmm0, %xmm0
	movabsq	$-4658895280553007687, %r11
	movabsq	$-7723592293110705685, %r10
	addq	%rdx, %rsi
	leaq	0(,%rax,4), %r9
	vmovss	.LC36(%rip), %xmm3
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	leaq	1(%rax), %rsi
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, (%rdi,%rax,4)
	cmpq	%rcx, %rsi
	jnb	.L133
	movabsq	$4354685564936845354, %rsi
	addq	%rdx, %rsi
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	leaq	2(%rax), %rsi
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, 4(%rdi,%r9)
	cmpq	%rcx, %rsi
	jnb	.L133
	movabsq	$-2691343689449507777, %rsi
	addq	%rdx, %rsi
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	leaq	3(%rax), %rsi
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, 8(%rdi,%r9)
	cmpq	%rcx, %rsi
	jnb	.L133
	movabsq	$8709371129873690708, %rsi
	addq	%rdx, %rsi
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	leaq	4(%rax), %rsi
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, 12(%rdi,%r9)
	cmpq	%rcx, %rsi
	jnb	.L133
	movabsq	$1663341875487337577, %rsi
	addq	%rdx, %rsi
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	leaq	5(%rax), %rsi
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, 16(%rdi,%r9)
	cmpq	%rcx, %rsi
	jnb	.L133
	movabsq	$-5382687378899015554, %rsi
	addq	$6, %rax
	addq	%rdx, %rsi
	movq	%rsi, %r8
	shrq	$30, %r8
	xorq	%rsi, %r8
	imulq	%r11, %r8
	movq	%r8, %rsi
	shrq	$27, %rsi
	xorq	%r8, %rsi
	imulq	%r10, %rsi
	movq	%rsi, %r8
	shrq	$31, %r8
	xorq	%r8, %rsi
	shrq	$40, %rsi
	vcvtsi2ssq	%rsi, %xmm0, %xmm2
	vmulss	%xmm3, %xmm2, %xmm2
	vmulss	%xmm1, %xmm2, %xmm2
	vaddss	%xmm7, %xmm2, %xmm2
	vmovss	%xmm2, 20(%rdi,%r9)
	cmpq	%rcx, %rax
	jnb	.L133
	movabsq	$6018027440424182931, %rax
	addq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$30, %rax
	xorq	%rax, %rdx
	imulq	%r11, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	imulq	%r10, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rdx, %rax
	shrq	$40, %rax
	vcvtsi2ssq	%rax, %xmm0, %xmm0
	vmulss	%xmm3, %xmm0, %xmm0
	vmulss	%xmm1, %xmm0, %xmm0
	vaddss	%xmm7, %xmm0, %xmm0
	vmovss	%xmm0, 24(%rdi,%r9)
	vzeroupper
	ret
	.p2align 4,,10
	.p2align 3
.L133:
	vzeroupper
.L134:
	ret
.L119:
	xorl	%eax, %eax
	jmp	.L112
	.cfi_endproc
.LFE20:
	.size	ks_fill_uniform_f32, .-ks_fill_uniform_f32
	.section	.rodata.str1.8
	.align 8
.LC43:
	.string	"every one of the %zu output elements is %.9g, but the reference's differ: a constant output"
	.text
	.p2align 4
	.globl	ks_check_f32
	.type	ks_check_f32, @function
ks_check_f32:
.LFB22:
	.cfi_startproc
	vmovsd	.LC40(%rip), %xmm7
	vpxor	%xmm2, %xmm2, %xmm2
	movq	%rcx, %rax
	movq	$0, 256(%rcx)
	vmovdqu8	%zmm2, (%rcx)
	vmovdqu8	%zmm2, 64(%rcx)
	vmovdqu8	%zmm2, 128(%rcx)
	vmovdqu8	%zmm2, 192(%rcx)
	vmovsd	%xmm7, 48(%rcx)
	testq	%rdx, %rdx
	je	.L136
	vmovq	.LC20(%rip), %xmm6
	xorl	%ecx, %ecx
	vxorpd	%xmm8, %xmm8, %xmm8
	vmovsd	.LC42(%rip), %xmm9
	jmp	.L149
	.p2align 4,,10
	.p2align 3
.L173:
	vdivsd	%xmm3, %xmm2, %xmm5
.L140:
	vcomisd	%xmm2, %xmm3
	jnb	.L142
.L157:
	addq	$1, 16(%rax)
	vucomisd	%xmm2, %xmm2
	jp	.L143
.L142:
	vmovsd	56(%rax), %xmm3
	vucomisd	%xmm3, %xmm3
	jp	.L143
.L175:
	vcomisd	%xmm3, %xmm2
	jbe	.L145
	vmovsd	%xmm2, 56(%rax)
.L145:
	vcomisd	%xmm7, %xmm5
	jbe	.L147
	movq	%rcx, 24(%rax)
	vmovsd	%xmm5, %xmm5, %xmm7
	vmovsd	%xmm5, 48(%rax)
	vmovupd	%xmm4, 32(%rax)
.L147:
	addq	$1, %rcx
	cmpq	%rcx, %rdx
	je	.L172
.L149:
	vmovss	(%rdi,%rcx,4), %xmm4
	vinsertps	$0x10, (%rsi,%rcx,4), %xmm4, %xmm4
	vcvtps2pd	%xmm4, %xmm4
	vunpckhpd	%xmm4, %xmm4, %xmm3
	vsubsd	%xmm3, %xmm4, %xmm2
	vandpd	%xmm6, %xmm3, %xmm3
	vmulsd	%xmm0, %xmm3, %xmm3
	vandpd	%xmm6, %xmm2, %xmm2
	vucomisd	%xmm2, %xmm2
	vaddsd	%xmm1, %xmm3, %xmm3
	jp	.L137
	vcomisd	%xmm8, %xmm3
	ja	.L173
	vcomisd	%xmm8, %xmm2
	jbe	.L174
	vcomisd	%xmm2, %xmm3
	movq	.LC41(%rip), %r8
	vmovq	%r8, %xmm5
	jb	.L157
	vmovsd	56(%rax), %xmm3
	vucomisd	%xmm3, %xmm3
	jnp	.L175
	.p2align 4,,10
	.p2align 3
.L143:
	vmovsd	%xmm9, 56(%rax)
	jmp	.L145
	.p2align 4,,10
	.p2align 3
.L174:
	vxorpd	%xmm5, %xmm5, %xmm5
	jmp	.L140
	.p2align 4,,10
	.p2align 3
.L137:
	vmovsd	.LC41(%rip), %xmm5
	vcomisd	%xmm2, %xmm3
	jb	.L157
	vmovsd	%xmm9, 56(%rax)
	jmp	.L145
	.p2align 4,,10
	.p2align 3
.L136:
	movq	$0x000000000, 48(%rcx)
	movl	$1, (%rcx)
.L169:
	vzeroupper
	ret
	.p2align 4,,10
	.p2align 3
.L172:
	xorl	%edx, %edx
	cmpq	$0, 16(%rax)
	movq	%rcx, 8(%rax)
	sete	%dl
	movl	%edx, (%rax)
	jne	.L169
	cmpq	$1, %rcx
	je	.L169
	vmovss	(%rdi), %xmm0
	movl	$1, %edx
	.p2align 4,,10
	.p2align 3
.L153:
	vucomiss	(%rdi,%rdx,4), %xmm0
	jp	.L169
	jne	.L169
	addq	$1, %rdx
	cmpq	%rcx, %rdx
	jb	.L153
	vmovss	(%rsi), %xmm1
	movl	$1, %edx
	jmp	.L156
	.p2align 4,,10
	.p2align 3
.L176:
	addq	$1, %rdx
	cmpq	%rcx, %rdx
	jnb	.L154
.L156:
	vucomiss	(%rsi,%rdx,4), %xmm1
	jp	.L154
	je	.L176
.L154:
	cmpq	%rcx, %rdx
	je	.L169
	movl	$0, (%rax)
	leaq	64(%rax), %rdi
	movl	$200, %esi
	leaq	.LC43(%rip), %rdx
	movl	$1, %eax
	vcvtss2sd	%xmm0, %xmm0, %xmm0
	vzeroupper
	jmp	snprintf@PLT
	.cfi_endproc
.LFE22:
	.size	ks_check_f32, .-ks_check_f32
	.section	.rodata.str1.1
.LC45:
	.string	"expected a positive integer"
	.section	.rodata.str1.8
	.align 8
.LC46:
	.string	"each dim must be from 1 to 2147483647"
	.section	.rodata.str1.1
.LC47:
	.string	"expected dims joined by 'x'"
.LC48:
	.string	"too few dims"
	.section	.rodata.str1.8
	.align 8
.LC49:
	.string	"expected dims joined by 'x', then optionally @SEED"
	.align 8
.LC50:
	.string	"the seed after '@' must be an unsigned integer"
	.section	.rodata.str1.1
.LC51:
	.string	"too many dims"
.LC52:
	.string	"x"
.LC53:
	.string	""
.LC54:
	.string	", on fresh inputs"
.LC55:
	.string	"true"
.LC56:
	.string	"false"
.LC57:
	.string	",\n  "
.LC58:
	.string	"bad problem '%s': ndims %d"
.LC59:
	.string	"/dev/urandom"
.LC62:
	.string	"--help"
	.section	.rodata.str1.8
	.align 8
.LC63:
	.string	"usage: runner [--seed S] [--salt S] [--rtol R] [--atol A] [--time-cap SECONDS] [--min-runs N]\n              [--json-fd FD] --test SHAPE ... --bench SHAPE ...\nproblem %s: SHAPE is "
	.section	.rodata.str1.1
.LC64:
	.string	"%s%s"
	.section	.rodata.str1.8
	.align 8
.LC65:
	.ascii	", optionally @SEED for a per-shape seed, e.g. 17x31x9 or 102"
	.ascii	"4x512x7168@6563\ndefaults: --see"
	.string	"d 1 --rtol 1e-4 --atol 1e-3 --time-cap 2 --min-runs 5 --json-fd 1\n--salt: mixed into every shape's seed; by default drawn at random each run (the JSON gives it), 0 for none\ntests are checked; bench shapes are checked and timed; one JSON verdict goes to FD\n"
	.section	.rodata.str1.1
.LC66:
	.string	"--test"
.LC67:
	.string	"--bench"
	.section	.rodata.str1.8
	.align 8
.LC68:
	.string	"bad shape '%s': give --test or --bench before it"
	.section	.rodata.str1.1
.LC69:
	.string	"bad shape '%s': %s"
	.section	.rodata.str1.8
	.align 8
.LC70:
	.string	"bad option '%s': needs a value"
	.section	.rodata.str1.1
.LC71:
	.string	"--seed"
	.section	.rodata.str1.8
	.align 8
.LC72:
	.string	"bad --seed '%s': expected an unsigned integer"
	.section	.rodata.str1.1
.LC73:
	.string	"--salt"
	.section	.rodata.str1.8
	.align 8
.LC74:
	.string	"bad --salt '%s': expected an unsigned integer"
	.section	.rodata.str1.1
.LC75:
	.string	"--rtol"
.LC76:
	.string	"--atol"
.LC77:
	.string	"--time-cap"
.LC78:
	.string	"--min-runs"
.LC79:
	.string	"--json-fd"
.LC80:
	.string	"unknown option '%s': try -h"
	.section	.rodata.str1.8
	.align 8
.LC81:
	.string	"no shapes: give --test SHAPE or --bench SHAPE; try -h"
	.section	.rodata.str1.1
.LC82:
	.string	"bad --json-fd '%d': %s"
	.section	.rodata.str1.8
	.align 8
.LC83:
	.string	"bad --json-fd '%d': not open for writing"
	.section	.rodata.str1.1
.LC84:
	.string	"cannot move --json-fd %d: %s"
.LC85:
	.string	"%s%d"
	.section	.rodata.str1.8
	.align 8
.LC86:
	.string	"setup failed '%s': out of memory"
	.section	.rodata.str1.1
.LC88:
	.string	" on timed run %ld"
.LC90:
	.string	" after %ld timed runs%s"
	.section	.rodata.str1.8
	.align 8
.LC92:
	.string	"open_memstream failed 'json': %s"
	.section	.rodata.str1.1
.LC93:
	.string	"{\"correct\": %s, \"salt\": %llu,"
.LC94:
	.string	"\n \"failure\": "
.LC95:
	.string	"\n \"tests\": ["
.LC96:
	.string	"{\"shape\": ["
.LC97:
	.string	","
.LC98:
	.string	"], \"seed\": %llu"
.LC99:
	.string	", \"ok\": %s, \"max_abs_err\": "
.LC100:
	.string	"%.17g"
.LC101:
	.string	"null"
.LC102:
	.string	", \"worst_ratio\": "
.LC103:
	.string	"],\n \"results\": ["
.LC104:
	.string	", \"time_us\": "
.LC106:
	.string	", \"mean_us\": "
.LC107:
	.string	", \"median_us\": "
.LC108:
	.string	", \"min_us\": "
.LC109:
	.string	", \"max_us\": "
.LC110:
	.string	", \"stderr_us\": "
.LC111:
	.string	", \"runs\": %ld}"
.LC112:
	.string	"],\n \"timer\": "
.LC113:
	.string	"}\n"
.LC114:
	.string	"write failed 'fd %d': %s"
	.section	.text.startup,"ax",@progbits
	.p2align 4
	.globl	main
	.type	main, @function
main:
.LFB47:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa 10, 0
	andq	$-32, %rsp
	pushq	-8(%r10)
	pushq	%rbp
	movq	%rsp, %rbp
	.cfi_escape 0x10,0x6,0x2,0x76,0
	pushq	%r15
	pushq	%r14
	pushq	%r13
	pushq	%r12
	pushq	%r10
	.cfi_escape 0xf,0x3,0x76,0x58,0x6
	.cfi_escape 0x10,0xf,0x2,0x76,0x78
	.cfi_escape 0x10,0xe,0x2,0x76,0x70
	.cfi_escape 0x10,0xd,0x2,0x76,0x68
	.cfi_escape 0x10,0xc,0x2,0x76,0x60
	pushq	%rbx
	subq	$2240, %rsp
	.cfi_escape 0x10,0x3,0x2,0x76,0x50
	movl	8+ks_problem(%rip), %eax
	movl	%edi, -2112(%rbp)
	movq	%rsi, -2120(%rbp)
	subl	$1, %eax
	movl	%eax, -2196(%rbp)
	cmpl	$7, %eax
	ja	.L373
	movl	$524288, %esi
	leaq	.LC59(%rip), %rdi
	xorl	%eax, %eax
	movq	$0, -1120(%rbp)
	movq	$1, -2048(%rbp)
	call	open@PLT
	movl	%eax, %r12d
	testl	%eax, %eax
	js	.L182
	leaq	-1120(%rbp), %rsi
	movl	$8, %edx
	movl	%eax, %edi
	call	read@PLT
	cmpq	$8, %rax
	je	.L180
.L182:
	call	getpid@PLT
	xorl	%edi, %edi
	movslq	%eax, %rbx
	call	time@PLT
	movabsq	$-3335678366873096957, %rcx
	movabsq	$-7046029254386353131, %rdx
	imulq	%rcx, %rbx
	addq	%rdx, %rax
	xorq	%rbx, %rax
	addq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	movabsq	$-7723592293110705685, %rdx
	imulq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rdx, %rax
	movq	%rax, -1120(%rbp)
	testl	%r12d, %r12d
	jns	.L180
.L181:
	vmovq	-1120(%rbp), %xmm1
	movslq	-2112(%rbp), %rbx
	movl	$48, %esi
	movq	$5, -2000(%rbp)
	vmovdqa	.LC116(%rip), %xmm0
	movq	.LC61(%rip), %rax
	movl	$1, -1992(%rbp)
	movq	%rbx, %rdi
	vpand	%xmm1, %xmm0, %xmm0
	movq	%rax, -2008(%rbp)
	vmovdqa	.LC117(%rip), %xmm1
	vpmaxuq	%xmm1, %xmm0, %xmm0
	vmovq	%xmm0, -2040(%rbp)
	vmovapd	.LC60(%rip), %xmm0
	vmovupd	%xmm0, -2024(%rbp)
	call	xcalloc
	movl	$48, %esi
	movq	%rbx, %rdi
	movq	%rax, -1984(%rbp)
	call	xcalloc
	vpxor	%xmm0, %xmm0, %xmm0
	movq	%rax, -1976(%rbp)
	vmovdqa	%xmm0, -1968(%rbp)
	cmpl	$1, %ebx
	jle	.L183
	movslq	8+ks_problem(%rip), %rax
	movl	$1, %r13d
	movl	$-1, -2128(%rbp)
	movq	%rax, -2144(%rbp)
	salq	$2, %rax
	movq	%rax, -2192(%rbp)
	movl	-2196(%rbp), %eax
	salq	$2, %rax
	movq	%rax, -2184(%rbp)
	leaq	-1424(%rbp), %rax
	movq	%rax, -2104(%rbp)
	.p2align 4,,10
	.p2align 3
.L216:
	movq	-2120(%rbp), %rcx
	movslq	%r13d, %rax
	leaq	0(,%rax,8), %rbx
	movq	(%rcx,%rax,8), %r12
	cmpb	$45, (%r12)
	jne	.L337
	cmpb	$104, 1(%r12)
	jne	.L337
	cmpb	$0, 2(%r12)
	je	.L185
.L337:
	leaq	.LC62(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L185
	leaq	.LC66(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	leaq	.LC67(%rip), %rsi
	movq	%r12, %rdi
	movl	%eax, %r14d
	call	strcmp@PLT
	testl	%r14d, %r14d
	je	.L191
	testl	%eax, %eax
	je	.L191
	cmpb	$45, (%r12)
	je	.L194
	cmpl	$-1, -2128(%rbp)
	je	.L374
	movl	-2128(%rbp), %r15d
	testl	%r15d, %r15d
	je	.L196
	movq	-1960(%rbp), %r9
	leaq	-1960(%rbp), %r10
	leaq	(%r9,%r9,2), %r8
	salq	$4, %r8
	addq	-1976(%rbp), %r8
.L197:
	movq	-2192(%rbp), %rax
	movq	%r12, -2136(%rbp)
	movq	%r12, %r15
	movq	%r8, %r12
	movl	%r13d, -2176(%rbp)
	leaq	(%rax,%r8), %rbx
	movq	-2184(%rbp), %rax
	movl	$0, 40(%r8)
	movq	%r9, -2152(%rbp)
	addq	%r8, %rax
	movq	%r8, -2160(%rbp)
	movq	%r10, -2168(%rbp)
	movq	%rax, %r13
	jmp	.L198
	.p2align 4,,10
	.p2align 3
.L201:
	subl	$48, %eax
	cmpb	$9, %al
	ja	.L310
	call	__errno_location@PLT
	movq	-2104(%rbp), %rsi
	movl	$10, %edx
	movq	%r15, %rdi
	movl	$0, (%rax)
	movq	%rax, %r14
	call	strtol@PLT
	movl	(%r14), %r14d
	testl	%r14d, %r14d
	jne	.L312
	leaq	-1(%rax), %rdx
	cmpq	$2147483646, %rdx
	ja	.L312
	movl	%eax, (%r12)
	movq	-1424(%rbp), %r15
	cmpq	%r12, %r13
	je	.L200
	movzbl	(%r15), %eax
	testb	%al, %al
	je	.L313
	addq	$1, %r15
	addq	$4, %r12
	cmpb	$120, %al
	jne	.L314
.L198:
	movzbl	(%r15), %eax
	cmpq	%r12, %rbx
	jne	.L201
.L200:
	movzbl	(%r15), %eax
	movq	-2136(%rbp), %r12
	movq	-2152(%rbp), %r9
	movq	-2160(%rbp), %r8
	movq	-2168(%rbp), %r10
	movl	-2176(%rbp), %r13d
	cmpb	$120, %al
	je	.L315
	cmpb	$64, %al
	je	.L375
	testb	%al, %al
	je	.L206
	leaq	.LC49(%rip), %rcx
	jmp	.L202
.L375:
	movzbl	1(%r15), %eax
	leaq	1(%r15), %rbx
	subl	$48, %eax
	cmpb	$9, %al
	ja	.L205
	movq	%r8, -2136(%rbp)
	movq	%r10, -2160(%rbp)
	movq	%r9, -2152(%rbp)
	call	__errno_location@PLT
	xorl	%r11d, %r11d
	movl	$10, %edx
	movq	%rbx, %rdi
	movl	%r11d, (%rax)
	leaq	-1120(%rbp), %rsi
	movq	%rax, %r14
	call	strtoull@PLT
	movq	-2136(%rbp), %r8
	cmpl	$0, (%r14)
	movq	%rax, 32(%r8)
	jne	.L205
	movq	-1120(%rbp), %rax
	cmpb	$0, (%rax)
	jne	.L205
	movl	$1, 40(%r8)
	movq	-2152(%rbp), %r9
	movq	-2160(%rbp), %r10
.L206:
	addq	$1, %r9
	movq	%r9, (%r10)
.L193:
	addl	$1, %r13d
	cmpl	%r13d, -2112(%rbp)
	jg	.L216
	movq	-1968(%rbp), %rax
	movq	%rax, -2120(%rbp)
	testq	%rax, %rax
	jne	.L217
.L183:
	xorl	%r10d, %r10d
	cmpq	$0, -1960(%rbp)
	movq	%r10, -2120(%rbp)
	je	.L376
.L217:
	movl	-1992(%rbp), %eax
	movl	$3, %esi
	movl	%eax, -2160(%rbp)
	movl	%eax, %edi
	xorl	%eax, %eax
	call	fcntl@PLT
	testl	%eax, %eax
	js	.L377
	testb	$3, %al
	je	.L378
	movl	-2160(%rbp), %edi
	movq	-2040(%rbp), %rbx
	cmpl	$2, %edi
	jg	.L379
.L220:
	movq	-2048(%rbp), %r12
	movq	-1984(%rbp), %r15
	xorl	%ecx, %ecx
	movq	%rbx, %r8
	movl	-2160(%rbp), %eax
	movq	-2120(%rbp), %rsi
	movq	%r12, %rdx
	movq	%r15, %rdi
	movl	%eax, -1992(%rbp)
	call	derive_seeds
	movq	%rbx, %r8
	movl	$1, %ecx
	movq	%r12, %rdx
	movq	-1960(%rbp), %r13
	movq	-1976(%rbp), %r14
	movq	%r13, %rsi
	movq	%r14, %rdi
	movq	%r13, -2176(%rbp)
	call	derive_seeds
	call	getpid@PLT
	leaq	-1120(%rbp), %rdi
	movl	$32, %esi
	movabsq	$-7046029254386353131, %rdx
	cltq
	movq	%rdi, -2168(%rbp)
	movabsq	$-1463009460201475492, %rcx
	xorq	%rbx, %rax
	addq	%rdx, %rax
	xorq	%rcx, %rax
	movl	$134, %ecx
	addq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	movabsq	$-7723592293110705685, %rdx
	imulq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$31, %rdx
	xorq	%rdx, %rax
	movq	%rax, -2032(%rbp)
	xorl	%eax, %eax
	rep stosq
	movq	%rbx, -1112(%rbp)
	movq	-2120(%rbp), %rdi
	movl	$1, -1120(%rbp)
	call	xcalloc
	movl	$56, %esi
	movq	%r13, %rdi
	movq	%rax, -80(%rbp)
	call	xcalloc
	cmpq	$0, -2120(%rbp)
	movq	%rax, -72(%rbp)
	je	.L234
	xorl	%r8d, %r8d
	movq	%r15, -2184(%rbp)
	movq	%r15, %r13
	movq	%r8, -2104(%rbp)
	movq	%r14, -2192(%rbp)
	jmp	.L232
	.p2align 4,,10
	.p2align 3
.L228:
	addq	$1, -2104(%rbp)
	movq	-2120(%rbp), %rcx
	addq	$48, %r13
	movq	-2104(%rbp), %rax
	movl	%r12d, -1120(%rbp)
	cmpq	%rcx, %rax
	jnb	.L369
	testl	%r12d, %r12d
	je	.L369
.L232:
	movq	-64(%rbp), %rbx
	movq	%r13, %rdi
	leaq	1(%rbx), %rax
	salq	$5, %rbx
	addq	-80(%rbp), %rbx
	movq	%rax, -64(%rbp)
	movq	32(%r13), %rsi
	call	*24+ks_problem(%rip)
	movq	%rax, %r12
	testq	%rax, %rax
	je	.L380
	movq	%rax, %rdi
	call	*32+ks_problem(%rip)
	leaq	-1696(%rbp), %rax
	movq	%r12, %rdi
	vmovsd	-2016(%rbp), %xmm1
	vmovsd	-2024(%rbp), %xmm0
	movq	%rax, -2136(%rbp)
	movq	%rax, %rsi
	vmovsd	%xmm1, -2112(%rbp)
	vmovsd	%xmm0, -2128(%rbp)
	call	*40+ks_problem(%rip)
	movq	%r12, %rdi
	call	*48+ks_problem(%rip)
	movl	-1696(%rbp), %r12d
	movq	%r13, (%rbx)
	vpermilpd	$1, -1648(%rbp), %xmm0
	vmovsd	-2112(%rbp), %xmm1
	testl	%r12d, %r12d
	movl	%r12d, 8(%rbx)
	vmovupd	%xmm0, 16(%rbx)
	jne	.L228
	movl	-2196(%rbp), %eax
	movl	$8293, %edi
	xorl	%ebx, %ebx
	leaq	-1424(%rbp), %rsi
	movw	%di, -1420(%rbp)
	leaq	-1418(%rbp), %r15
	xorl	%edi, %edi
	leaq	.LC52(%rip), %r14
	movl	$1885431923, -1424(%rbp)
	movb	$0, -1418(%rbp)
	movq	%rax, -2112(%rbp)
	movq	%rsi, -2152(%rbp)
	vmovsd	%xmm1, -2144(%rbp)
	jmp	.L229
	.p2align 4,,10
	.p2align 3
.L381:
	movslq	%r12d, %rdi
	addq	$1, %rbx
	cmpl	$293, %r12d
	jg	.L368
.L229:
	testq	%rbx, %rbx
	movl	0(%r13,%rbx,4), %r8d
	leaq	.LC53(%rip), %rcx
	movl	$294, %esi
	cmovne	%r14, %rcx
	leaq	.LC85(%rip), %rdx
	subq	%rdi, %rsi
	xorl	%eax, %eax
	addq	%r15, %rdi
	call	snprintf@PLT
	addl	%eax, %r12d
	cmpq	%rbx, -2112(%rbp)
	jne	.L381
.L368:
	vmovsd	-2144(%rbp), %xmm1
	movq	-2152(%rbp), %rsi
	movq	%r13, %rdx
	movq	-2136(%rbp), %rcx
	movq	-2168(%rbp), %rdi
	vmovsd	-2128(%rbp), %xmm0
	call	describe_failure
	movl	-1696(%rbp), %r12d
	jmp	.L228
	.p2align 4,,10
	.p2align 3
.L191:
	testl	%eax, %eax
	sete	%al
	movzbl	%al, %eax
	movl	%eax, -2128(%rbp)
	jmp	.L193
	.p2align 4,,10
	.p2align 3
.L194:
	addl	$1, %r13d
	cmpl	%r13d, -2112(%rbp)
	jle	.L382
	movq	-2120(%rbp), %rax
	leaq	.LC71(%rip), %rsi
	movq	%r12, %rdi
	movq	8(%rax,%rbx), %rbx
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L383
	leaq	.LC73(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L384
	leaq	.LC75(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L385
	leaq	.LC76(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L386
	leaq	.LC77(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L387
	leaq	.LC78(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	je	.L388
	leaq	.LC79(%rip), %rsi
	movq	%r12, %rdi
	call	strcmp@PLT
	testl	%eax, %eax
	jne	.L215
	movl	$2147483647, %ecx
	xorl	%edx, %edx
	movq	%rbx, %rsi
	movq	%r12, %rdi
	call	parse_long
	movl	%eax, -1992(%rbp)
	jmp	.L193
	.p2align 4,,10
	.p2align 3
.L196:
	movq	-1968(%rbp), %r9
	leaq	-1968(%rbp), %r10
	leaq	(%r9,%r9,2), %r8
	salq	$4, %r8
	addq	-1984(%rbp), %r8
	jmp	.L197
	.p2align 4,,10
	.p2align 3
.L312:
	movq	-2136(%rbp), %r12
	leaq	.LC46(%rip), %rcx
.L202:
	movq	%r12, %rdx
	leaq	.LC69(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
	.p2align 4,,10
	.p2align 3
.L383:
	leaq	-2048(%rbp), %rsi
	movq	%rbx, %rdi
	call	parse_u64
	testl	%eax, %eax
	jns	.L193
	movq	%rbx, %rdx
	leaq	.LC72(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
	.p2align 4,,10
	.p2align 3
.L310:
	movq	-2136(%rbp), %r12
	leaq	.LC45(%rip), %rcx
	jmp	.L202
.L185:
	movq	stdout(%rip), %rbx
	movq	ks_problem(%rip), %rdx
	xorl	%eax, %eax
	xorl	%r14d, %r14d
	leaq	.LC63(%rip), %rsi
	leaq	.LC64(%rip), %r12
	movq	%rbx, %rdi
	leaq	.LC53(%rip), %r15
	call	fprintf@PLT
	movq	16+ks_problem(%rip), %r13
.L190:
	movq	0(%r13,%r14,8), %rcx
	testq	%r14, %r14
	jne	.L187
.L389:
	xorl	%eax, %eax
	movq	%r15, %rdx
	movq	%r12, %rsi
	movq	%rbx, %rdi
	call	fprintf@PLT
	cmpq	$1, -2144(%rbp)
	je	.L189
	movl	$1, %r14d
	movq	0(%r13,%r14,8), %rcx
	testq	%r14, %r14
	je	.L389
.L187:
	leaq	.LC52(%rip), %rdx
	movq	%r12, %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	movq	-2144(%rbp), %rax
	addq	$1, %r14
	cmpq	%rax, %r14
	jne	.L190
.L189:
	leaq	.LC65(%rip), %rdi
	movq	%rbx, %rcx
	movl	$347, %edx
	movl	$1, %esi
	call	fwrite@PLT
	xorl	%edi, %edi
	call	exit@PLT
.L313:
	movq	-2136(%rbp), %r12
	leaq	.LC48(%rip), %rcx
	jmp	.L202
.L314:
	movq	-2136(%rbp), %r12
	leaq	.LC47(%rip), %rcx
	jmp	.L202
.L384:
	leaq	-2040(%rbp), %rsi
	movq	%rbx, %rdi
	call	parse_u64
	testl	%eax, %eax
	jns	.L193
	movq	%rbx, %rdx
	leaq	.LC74(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L386:
	xorl	%edx, %edx
	movq	%rbx, %rsi
	movq	%r12, %rdi
	call	parse_double.constprop.0
	vmovsd	%xmm0, -2016(%rbp)
	jmp	.L193
.L180:
	movl	%r12d, %edi
	call	close@PLT
	jmp	.L181
.L385:
	xorl	%edx, %edx
	movq	%rbx, %rsi
	movq	%r12, %rdi
	call	parse_double.constprop.0
	vmovsd	%xmm0, -2024(%rbp)
	jmp	.L193
.L369:
	movq	-2184(%rbp), %r15
	movq	-2192(%rbp), %r14
.L234:
	xorl	%r9d, %r9d
	movq	%r14, -2112(%rbp)
	movq	%r9, -2120(%rbp)
	movq	%r15, -2184(%rbp)
	movq	%r14, -2192(%rbp)
.L223:
	cmpl	$0, -1120(%rbp)
	je	.L336
	movq	-2176(%rbp), %rcx
	cmpq	%rcx, -2120(%rbp)
	jnb	.L336
	movq	64+ks_problem(%rip), %rbx
	leaq	ks_host_timer(%rip), %rax
	movl	$543518817, -1416(%rbp)
	leaq	-1412(%rbp), %r15
	movb	$0, -1412(%rbp)
	leaq	.LC53(%rip), %r14
	testq	%rbx, %rbx
	cmove	%rax, %rbx
	leaq	-1424(%rbp), %rax
	xorl	%r13d, %r13d
	xorl	%r12d, %r12d
	movq	%rax, -2144(%rbp)
	movabsq	$7526395034983097698, %rax
	movq	%rax, -1424(%rbp)
	movl	-2196(%rbp), %eax
	movq	%rbx, -2128(%rbp)
	movq	%r13, %rbx
	movq	-2112(%rbp), %r13
	movq	%rax, -2104(%rbp)
	xorl	%eax, %eax
	jmp	.L238
	.p2align 4,,10
	.p2align 3
.L390:
	movslq	%r12d, %rax
	addq	$1, %rbx
	cmpl	$287, %r12d
	jg	.L237
.L238:
	testq	%rbx, %rbx
	leaq	.LC52(%rip), %rcx
	movl	0(%r13,%rbx,4), %r8d
	movl	$288, %esi
	cmove	%r14, %rcx
	leaq	(%r15,%rax), %rdi
	subq	%rax, %rsi
	xorl	%eax, %eax
	leaq	.LC85(%rip), %rdx
	call	snprintf@PLT
	addl	%eax, %r12d
	cmpq	%rbx, -2104(%rbp)
	jne	.L390
.L237:
	movq	-2112(%rbp), %rdi
	movq	-2128(%rbp), %rbx
	movq	32(%rdi), %rsi
	call	*24+ks_problem(%rip)
	movq	%rax, %r13
	testq	%rax, %rax
	je	.L391
	movq	%rax, %rdi
	movq	32+ks_problem(%rip), %r14
	call	*%r14
	leaq	-1696(%rbp), %rax
	movq	%r13, %rdi
	vmovsd	-2016(%rbp), %xmm1
	vmovsd	-2024(%rbp), %xmm0
	movq	%rax, -2136(%rbp)
	movq	%rax, %rsi
	vmovsd	%xmm1, -2104(%rbp)
	vmovsd	%xmm0, -2128(%rbp)
	call	*40+ks_problem(%rip)
	cmpl	$0, -1696(%rbp)
	je	.L392
	leaq	-1952(%rbp), %rax
	movl	$1, %edi
	xorl	%r15d, %r15d
	movq	%rax, %rsi
	movq	%rax, -2152(%rbp)
	call	clock_gettime@PLT
	vxorpd	%xmm4, %xmm4, %xmm4
	vcvtsi2sdq	-1944(%rbp), %xmm4, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	-1952(%rbp), %xmm4, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm4
	vmovsd	%xmm4, -2208(%rbp)
	.p2align 4,,10
	.p2align 3
.L245:
	addq	$1, %r15
	movq	%r13, %rsi
	movq	%r14, %rdi
	call	*8(%rbx)
	cmpq	$1, %r15
	je	.L245
	movq	-2152(%rbp), %rsi
	movl	$1, %edi
	call	clock_gettime@PLT
	vxorpd	%xmm2, %xmm2, %xmm2
	vmovsd	.LC87(%rip), %xmm4
	vcvtsi2sdq	-1944(%rbp), %xmm2, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	-1952(%rbp), %xmm2, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vsubsd	-2208(%rbp), %xmm0, %xmm0
	vcomisd	%xmm0, %xmm4
	ja	.L245
	movq	-2152(%rbp), %rsi
	leal	12(%r12), %eax
	movl	$1, %edi
	xorl	%r12d, %r12d
	movl	%eax, -2212(%rbp)
	call	clock_gettime@PLT
	vxorpd	%xmm2, %xmm2, %xmm2
	xorl	%esi, %esi
	xorl	%edx, %edx
	vcvtsi2sdq	-1944(%rbp), %xmm2, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	movq	$0x000000000, -2256(%rbp)
	vcvtsi2sdq	-1952(%rbp), %xmm2, %xmm1
	movq	%rsi, -2224(%rbp)
	movq	$0x000000000, -2208(%rbp)
	movq	%rbx, -2272(%rbp)
	movq	%rdx, %rbx
	vaddsd	%xmm1, %xmm0, %xmm5
	vmovsd	%xmm5, -2264(%rbp)
.L255:
	movq	-2272(%rbp), %rax
	movq	%r13, %rsi
	movq	%r14, %rdi
	call	*8(%rax)
	movabsq	$-7046029254386353131, %rax
	addq	-2032(%rbp), %rax
	movq	%rax, %rcx
	movq	%rax, -2032(%rbp)
	vmovsd	%xmm0, %xmm0, %xmm2
	shrq	$30, %rcx
	xorq	%rax, %rcx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rcx
	movq	%rcx, %rax
	shrq	$27, %rax
	xorq	%rcx, %rax
	movabsq	$-7723592293110705685, %rcx
	imulq	%rcx, %rax
	movq	%rax, %rcx
	shrq	$31, %rcx
	xorq	%rcx, %rax
	testb	$3, %al
	jne	.L247
	vmovsd	%xmm0, -2280(%rbp)
	movq	-2136(%rbp), %rsi
	movq	%r13, %rdi
	vmovsd	-2104(%rbp), %xmm1
	vmovsd	-2128(%rbp), %xmm0
	call	*40+ks_problem(%rip)
	cmpl	$0, -1696(%rbp)
	vmovsd	-2280(%rbp), %xmm2
	je	.L393
.L247:
	movq	-2224(%rbp), %rax
	cmpq	%rax, %rbx
	je	.L394
.L249:
	vmovsd	-2256(%rbp), %xmm5
	vxorpd	%xmm6, %xmm6, %xmm6
	leaq	1(%rbx), %r15
	vmovsd	%xmm2, (%r12,%rbx,8)
	vcvtsi2sdq	%r15, %xmm6, %xmm1
	vsubsd	%xmm5, %xmm2, %xmm3
	vdivsd	%xmm1, %xmm3, %xmm0
	vaddsd	%xmm5, %xmm0, %xmm6
	vmovsd	%xmm6, -2256(%rbp)
	vsubsd	%xmm6, %xmm2, %xmm0
	vmulsd	%xmm3, %xmm0, %xmm0
	vaddsd	-2208(%rbp), %xmm0, %xmm7
	vmovsd	%xmm7, -2208(%rbp)
	cmpq	-2000(%rbp), %r15
	jge	.L251
.L254:
	cmpq	$1000000, %r15
	je	.L372
.L252:
	movq	-2152(%rbp), %rsi
	movl	$1, %edi
	call	clock_gettime@PLT
	vxorpd	%xmm7, %xmm7, %xmm7
	vcvtsi2sdq	-1944(%rbp), %xmm7, %xmm0
	vmulsd	.LC15(%rip), %xmm0, %xmm0
	vcvtsi2sdq	-1952(%rbp), %xmm7, %xmm1
	vaddsd	%xmm1, %xmm0, %xmm0
	vsubsd	-2264(%rbp), %xmm0, %xmm0
	vmovsd	-2008(%rbp), %xmm1
	vcomisd	%xmm0, %xmm1
	jbe	.L372
	movq	%r15, %rbx
	jmp	.L255
.L315:
	leaq	.LC51(%rip), %rcx
	jmp	.L202
.L379:
	movl	$800, %ecx
	movq	%rbx, %rax
	xorl	%edx, %edx
	movl	$1030, %esi
	divq	%rcx
	xorl	%eax, %eax
	addl	$100, %edx
	call	fcntl@PLT
	movl	%eax, %r12d
	testl	%eax, %eax
	js	.L395
	movl	-2160(%rbp), %edi
	call	close@PLT
	movl	%r12d, -2160(%rbp)
	jmp	.L220
.L387:
	movl	$1, %edx
	movq	%rbx, %rsi
	movq	%r12, %rdi
	call	parse_double.constprop.0
	vmovsd	%xmm0, -2008(%rbp)
	jmp	.L193
.L392:
	movq	-2168(%rbp), %rdi
	movq	-2136(%rbp), %rcx
	movq	-2112(%rbp), %rdx
	movq	-2144(%rbp), %rsi
	vmovsd	-2104(%rbp), %xmm1
	vmovsd	-2128(%rbp), %xmm0
	call	describe_failure
	movq	%r13, %rdi
	call	*48+ks_problem(%rip)
.L244:
	xorl	%eax, %eax
.L248:
	addq	$1, -2120(%rbp)
	addq	$48, -2112(%rbp)
	movl	%eax, -1120(%rbp)
	jmp	.L223
.L388:
	movl	$1000000, %ecx
	movl	$1, %edx
	movq	%rbx, %rsi
	movq	%r12, %rdi
	call	parse_long
	movq	%rax, -2000(%rbp)
	jmp	.L193
.L205:
	leaq	.LC50(%rip), %rcx
	jmp	.L202
.L336:
	xorl	%ecx, %ecx
	leaq	-1952(%rbp), %rsi
	leaq	-2096(%rbp), %rdi
	movq	-2184(%rbp), %r15
	movq	%rcx, -2096(%rbp)
	movq	-2192(%rbp), %r14
	movq	%rcx, -1952(%rbp)
	call	open_memstream@PLT
	movq	%rax, %rbx
	testq	%rax, %rax
	je	.L396
	movq	64+ks_problem(%rip), %r12
	testq	%r12, %r12
	je	.L397
.L270:
	cmpl	$0, -1120(%rbp)
	leaq	.LC56(%rip), %rax
	leaq	.LC55(%rip), %rdx
	movq	-1112(%rbp), %rcx
	cmove	%rax, %rdx
	leaq	.LC93(%rip), %rsi
	xorl	%eax, %eax
	movq	%rbx, %rdi
	call	fprintf@PLT
	cmpl	$0, -1120(%rbp)
	je	.L398
.L272:
	movl	$12, %edx
	movq	%rbx, %rcx
	movl	$1, %esi
	leaq	.LC95(%rip), %rdi
	call	fwrite@PLT
	xorl	%edx, %edx
	movq	%r15, -2120(%rbp)
	movslq	8+ks_problem(%rip), %r13
	movq	%rdx, -2104(%rbp)
	movq	%r14, -2128(%rbp)
	movq	%r12, -2136(%rbp)
.L273:
	movq	-2104(%rbp), %rax
	cmpq	-64(%rbp), %rax
	jnb	.L399
	movq	-2104(%rbp), %rax
	movq	-80(%rbp), %r14
	leaq	.LC57(%rip), %rdi
	movq	%rbx, %rsi
	movq	%rax, %r15
	salq	$5, %r15
	addq	%r15, %r14
	testq	%rax, %rax
	leaq	.LC53(%rip), %rax
	cmove	%rax, %rdi
	movq	%r14, -2112(%rbp)
	xorl	%r15d, %r15d
	call	fputs@PLT
	movq	%rbx, %rcx
	movl	$11, %edx
	movq	(%r14), %r12
	movl	$1, %esi
	leaq	.LC96(%rip), %rdi
	leaq	.LC85(%rip), %r14
	call	fwrite@PLT
.L278:
	movl	(%r12,%r15,4), %ecx
	testq	%r15, %r15
	jne	.L275
.L400:
	xorl	%eax, %eax
	leaq	.LC53(%rip), %rdx
	movq	%r14, %rsi
	movq	%rbx, %rdi
	call	fprintf@PLT
	cmpq	$1, %r13
	je	.L277
	movl	$1, %r15d
	movl	(%r12,%r15,4), %ecx
	testq	%r15, %r15
	je	.L400
.L275:
	leaq	.LC97(%rip), %rdx
	movq	%r14, %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	addq	$1, %r15
	cmpq	%r15, %r13
	jne	.L278
.L277:
	movq	32(%r12), %rdx
	leaq	.LC98(%rip), %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	movq	-2112(%rbp), %r14
	movq	%rbx, %rdi
	leaq	.LC56(%rip), %rax
	leaq	.LC55(%rip), %rdx
	leaq	.LC99(%rip), %rsi
	cmpl	$0, 8(%r14)
	cmove	%rax, %rdx
	xorl	%eax, %eax
	call	fprintf@PLT
	movq	.LC28(%rip), %r12
	vmovsd	16(%r14), %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vmovq	%r12, %xmm5
	vucomisd	%xmm1, %xmm5
	jb	.L280
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L281:
	movq	%rbx, %rcx
	movl	$17, %edx
	movl	$1, %esi
	leaq	.LC102(%rip), %rdi
	call	fwrite@PLT
	movq	-2112(%rbp), %rax
	vmovq	%r12, %xmm6
	vmovsd	24(%rax), %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm6
	jb	.L282
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L283:
	movq	%rbx, %rsi
	movl	$125, %edi
	call	fputc@PLT
	addq	$1, -2104(%rbp)
	jmp	.L273
.L280:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L281
.L282:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L283
.L399:
	movq	-2120(%rbp), %r15
	movq	%rbx, %rcx
	movl	$16, %edx
	movl	$1, %esi
	movq	-2128(%rbp), %r14
	movq	-2136(%rbp), %r12
	leaq	.LC103(%rip), %rdi
	call	fwrite@PLT
	xorl	%eax, %eax
	movq	%r15, -2120(%rbp)
	movslq	8+ks_problem(%rip), %r13
	movq	%rax, -2112(%rbp)
	movq	%r14, -2128(%rbp)
	movq	%r12, -2136(%rbp)
.L285:
	movq	-2112(%rbp), %rax
	cmpq	-56(%rbp), %rax
	jnb	.L401
	movq	-2112(%rbp), %rax
	leaq	.LC57(%rip), %rdi
	movq	%rbx, %rsi
	imulq	$56, %rax, %r12
	addq	-72(%rbp), %r12
	testq	%rax, %rax
	leaq	.LC53(%rip), %rax
	cmove	%rax, %rdi
	xorl	%r15d, %r15d
	call	fputs@PLT
	movq	%rbx, %rcx
	movq	(%r12), %r14
	movl	$11, %edx
	movl	$1, %esi
	leaq	.LC96(%rip), %rdi
	call	fwrite@PLT
	leaq	.LC85(%rip), %rax
	movq	%rax, -2104(%rbp)
.L290:
	movl	(%r14,%r15,4), %ecx
	testq	%r15, %r15
	jne	.L287
.L402:
	movq	-2104(%rbp), %rsi
	xorl	%eax, %eax
	leaq	.LC53(%rip), %rdx
	movq	%rbx, %rdi
	call	fprintf@PLT
	cmpq	$1, %r13
	je	.L289
	movl	$1, %r15d
	movl	(%r14,%r15,4), %ecx
	testq	%r15, %r15
	je	.L402
.L287:
	movq	-2104(%rbp), %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	addq	$1, %r15
	leaq	.LC97(%rip), %rdx
	call	fprintf@PLT
	cmpq	%r15, %r13
	jne	.L290
.L289:
	movq	32(%r14), %rdx
	leaq	.LC98(%rip), %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	movq	%rbx, %rcx
	movl	$13, %edx
	movl	$1, %esi
	leaq	.LC104(%rip), %rdi
	call	fwrite@PLT
	movq	.LC28(%rip), %r14
	vmovsd	.LC105(%rip), %xmm7
	vmulsd	8(%r12), %xmm7, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vmovq	%r14, %xmm3
	vucomisd	%xmm1, %xmm3
	jb	.L291
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L292:
	movq	%rbx, %rcx
	movl	$13, %edx
	movl	$1, %esi
	leaq	.LC106(%rip), %rdi
	call	fwrite@PLT
	vmovq	%r14, %xmm5
	vmovsd	.LC105(%rip), %xmm2
	vmulsd	8(%r12), %xmm2, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm5
	jb	.L293
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L294:
	movq	%rbx, %rcx
	movl	$15, %edx
	movl	$1, %esi
	leaq	.LC107(%rip), %rdi
	call	fwrite@PLT
	vmovq	%r14, %xmm7
	vmovsd	.LC105(%rip), %xmm6
	vmulsd	16(%r12), %xmm6, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm7
	jb	.L295
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L296:
	movq	%rbx, %rcx
	movl	$12, %edx
	movl	$1, %esi
	leaq	.LC108(%rip), %rdi
	call	fwrite@PLT
	vmovq	%r14, %xmm2
	vmovsd	.LC105(%rip), %xmm3
	vmulsd	24(%r12), %xmm3, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm2
	jb	.L297
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L298:
	movq	%rbx, %rcx
	movl	$12, %edx
	movl	$1, %esi
	leaq	.LC109(%rip), %rdi
	call	fwrite@PLT
	vmovq	%r14, %xmm6
	vmovsd	.LC105(%rip), %xmm5
	vmulsd	32(%r12), %xmm5, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm6
	jb	.L299
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L300:
	movq	%rbx, %rcx
	movl	$15, %edx
	movl	$1, %esi
	leaq	.LC110(%rip), %rdi
	call	fwrite@PLT
	vmovq	%r14, %xmm3
	vmovsd	.LC105(%rip), %xmm7
	vmulsd	40(%r12), %xmm7, %xmm0
	vandpd	.LC20(%rip), %xmm0, %xmm1
	vucomisd	%xmm1, %xmm3
	jb	.L301
	leaq	.LC100(%rip), %rsi
	movq	%rbx, %rdi
	movl	$1, %eax
	call	fprintf@PLT
.L302:
	movq	48(%r12), %rdx
	leaq	.LC111(%rip), %rsi
	movq	%rbx, %rdi
	xorl	%eax, %eax
	call	fprintf@PLT
	addq	$1, -2112(%rbp)
	jmp	.L285
.L291:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L292
.L301:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L302
.L299:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L300
.L297:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L298
.L295:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L296
.L293:
	movq	%rbx, %rcx
	movl	$4, %edx
	movl	$1, %esi
	leaq	.LC101(%rip), %rdi
	call	fwrite@PLT
	jmp	.L294
.L401:
	movq	-2136(%rbp), %r12
	movq	%rbx, %rcx
	movl	$13, %edx
	movl	$1, %esi
	leaq	.LC112(%rip), %rdi
	movq	-2120(%rbp), %r15
	movq	-2128(%rbp), %r14
	call	fwrite@PLT
	movq	(%r12), %rsi
	movq	%rbx, %rdi
	call	json_str
	leaq	.LC113(%rip), %rdi
	movq	%rbx, %rcx
	movl	$2, %edx
	movl	$1, %esi
	call	fwrite@PLT
	movq	%rbx, %rdi
	call	fclose@PLT
	testl	%eax, %eax
	jne	.L304
	movq	stdout(%rip), %rdi
	xorl	%ebx, %ebx
	call	fflush@PLT
	movq	-1952(%rbp), %rax
	testq	%rax, %rax
	je	.L307
	movl	-2160(%rbp), %r12d
	movq	%rax, %rdx
	jmp	.L305
	.p2align 4,,10
	.p2align 3
.L306:
	movq	-1952(%rbp), %rdx
	addq	%rax, %rbx
	cmpq	%rdx, %rbx
	jnb	.L307
.L305:
	movq	-2096(%rbp), %rsi
	subq	%rbx, %rdx
	movl	%r12d, %edi
	addq	%rbx, %rsi
	call	write@PLT
	testq	%rax, %rax
	jns	.L306
	call	__errno_location@PLT
	movl	(%rax), %edi
	cmpl	$4, %edi
	jne	.L403
	xorl	%eax, %eax
	jmp	.L306
.L307:
	movq	-2096(%rbp), %rdi
	call	free@PLT
	movq	-80(%rbp), %rdi
	call	free@PLT
	movq	-72(%rbp), %rdi
	call	free@PLT
	movq	%r15, %rdi
	call	free@PLT
	movq	%r14, %rdi
	call	free@PLT
	addq	$2240, %rsp
	xorl	%eax, %eax
	popq	%rbx
	popq	%r10
	.cfi_remember_state
	.cfi_def_cfa 10, 0
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%r15
	popq	%rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa 7, 8
	ret
.L398:
	.cfi_restore_state
	movq	%rbx, %rcx
	movl	$13, %edx
	movl	$1, %esi
	leaq	.LC94(%rip), %rdi
	call	fwrite@PLT
	leaq	-1104(%rbp), %rsi
	movq	%rbx, %rdi
	call	json_str
	movq	%rbx, %rsi
	movl	$44, %edi
	call	fputc@PLT
	jmp	.L272
.L397:
	leaq	ks_host_timer(%rip), %r12
	jmp	.L270
.L374:
	movq	%r12, %rdx
	leaq	.LC68(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L396:
	call	__errno_location@PLT
	movl	(%rax), %edi
	call	strerror@PLT
	leaq	.LC92(%rip), %rsi
	movl	$1, %edi
	movq	%rax, %rdx
	xorl	%eax, %eax
	call	die
.L394:
	testq	%rbx, %rbx
	leaq	(%rbx,%rbx), %rcx
	movl	$64, %eax
	movq	%r12, %rdi
	vmovsd	%xmm2, -2280(%rbp)
	cmovne	%rcx, %rax
	leaq	0(,%rax,8), %rsi
	movq	%rax, -2224(%rbp)
	call	realloc@PLT
	vmovsd	-2280(%rbp), %xmm2
	testq	%rax, %rax
	movq	%rax, %r12
	jne	.L249
.L304:
	leaq	.LC25(%rip), %rsi
	movl	$1, %edi
	xorl	%eax, %eax
	call	die
.L403:
	call	strerror@PLT
	movl	-2160(%rbp), %edx
	movl	$1, %edi
	leaq	.LC114(%rip), %rsi
	movq	%rax, %rcx
	xorl	%eax, %eax
	call	die
.L395:
	call	__errno_location@PLT
	movl	(%rax), %edi
	call	strerror@PLT
	movl	-2160(%rbp), %edx
	movl	$1, %edi
	leaq	.LC84(%rip), %rsi
	movq	%rax, %rcx
	xorl	%eax, %eax
	call	die
.L373:
	movl	8+ks_problem(%rip), %ecx
	movq	ks_problem(%rip), %rdx
	leaq	.LC58(%rip), %rsi
	xorl	%eax, %eax
	movl	$1, %edi
	call	die
.L382:
	movq	%r12, %rdx
	leaq	.LC70(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L393:
	movslq	-2212(%rbp), %rax
	leaq	1(%rbx), %rcx
	movq	-2144(%rbp), %rbx
	movl	$300, %esi
	leaq	.LC88(%rip), %rdx
	subq	%rax, %rsi
	leaq	(%rbx,%rax), %rdi
	xorl	%eax, %eax
	call	snprintf@PLT
	movq	-2136(%rbp), %rcx
	movq	-2112(%rbp), %rdx
	movq	%rbx, %rsi
	vmovsd	-2104(%rbp), %xmm1
	movq	-2168(%rbp), %rdi
	vmovsd	-2128(%rbp), %xmm0
	call	describe_failure
	movq	%r13, %rdi
	call	*48+ks_problem(%rip)
	movq	%r12, %rdi
	call	free@PLT
	jmp	.L244
.L251:
	cmpq	$1, %r15
	je	.L252
	vmovsd	-2208(%rbp), %xmm4
	vxorpd	%xmm3, %xmm3, %xmm3
	vcvtsi2sdq	%rbx, %xmm3, %xmm0
	vdivsd	%xmm0, %xmm4, %xmm0
	vdivsd	%xmm1, %xmm0, %xmm0
	call	sqrt@PLT
	vmovsd	.LC89(%rip), %xmm5
	vmulsd	-2256(%rbp), %xmm5, %xmm1
	vcomisd	%xmm0, %xmm1
	jbe	.L254
.L372:
	movq	%r15, -2208(%rbp)
	movq	%r13, %rdi
	movq	-2136(%rbp), %rsi
	leaq	.LC53(%rip), %rbx
	vmovsd	-2104(%rbp), %xmm1
	vmovsd	-2128(%rbp), %xmm0
	call	*40+ks_problem(%rip)
	movq	48+ks_problem(%rip), %r15
	movq	%r13, %rdi
	call	*%r15
	cmpl	$0, -1696(%rbp)
	jne	.L404
.L256:
	movslq	-2212(%rbp), %rax
	movq	-2144(%rbp), %r14
	movl	$300, %esi
	movq	%rbx, %r8
	movq	-2208(%rbp), %rcx
	leaq	.LC90(%rip), %rdx
	subq	%rax, %rsi
	leaq	(%r14,%rax), %rdi
	xorl	%eax, %eax
	call	snprintf@PLT
	movq	-2168(%rbp), %rdi
	movq	-2136(%rbp), %rcx
	movq	%r14, %rsi
	vmovsd	-2104(%rbp), %xmm1
	movq	-2112(%rbp), %rdx
	vmovsd	-2128(%rbp), %xmm0
	call	describe_failure
	movq	%r12, %rdi
	call	free@PLT
	jmp	.L244
.L404:
	movq	-2112(%rbp), %rax
	movabsq	$-7046029254386353131, %rdx
	vmovdqu	(%rax), %ymm2
	vmovdqu	%ymm2, -2096(%rbp)
	vmovdqu	32(%rax), %xmm4
	vmovdqa	%ymm2, -2256(%rbp)
	vmovdqa	%xmm4, -2064(%rbp)
	movq	32(%rax), %rcx
	vmovdqa	%xmm4, -2256(%rbp)
	addq	%rdx, %rcx
	movq	%rcx, %rax
	movabsq	$349098652030510937, %rcx
	xorq	%rcx, %rax
	addq	%rdx, %rax
	movq	%rax, %rdx
	shrq	$30, %rdx
	xorq	%rax, %rdx
	movabsq	$-4658895280553007687, %rax
	imulq	%rax, %rdx
	movq	%rdx, %rax
	shrq	$27, %rax
	xorq	%rdx, %rax
	movabsq	$-7723592293110705685, %rdx
	imulq	%rdx, %rax
	movq	%rax, %rsi
	shrq	$31, %rsi
	xorq	%rax, %rsi
	movabsq	$9007199254740991, %rax
	andq	%rax, %rsi
	leaq	-2096(%rbp), %rax
	movq	%rsi, -2064(%rbp)
	movq	%rax, %rdi
	movq	%rax, -2256(%rbp)
	vzeroupper
	call	*24+ks_problem(%rip)
	movq	%rax, %r13
	testq	%rax, %rax
	je	.L405
	movq	%rax, %rdi
	call	*%r14
	movq	-2136(%rbp), %rsi
	movq	%r13, %rdi
	vmovsd	-2104(%rbp), %xmm1
	vmovsd	-2128(%rbp), %xmm0
	call	*40+ks_problem(%rip)
	movq	%r13, %rdi
	call	*%r15
	cmpl	$0, -1696(%rbp)
	jne	.L261
	leaq	.LC54(%rip), %rbx
	jmp	.L256
.L377:
	call	__errno_location@PLT
	movl	(%rax), %edi
	call	strerror@PLT
	movl	-2160(%rbp), %edx
	movl	$2, %edi
	leaq	.LC82(%rip), %rsi
	movq	%rax, %rcx
	xorl	%eax, %eax
	call	die
.L215:
	movq	%r12, %rdx
	leaq	.LC80(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L391:
	movb	$0, -1696(%rbp)
	xorl	%r14d, %r14d
	xorl	%r15d, %r15d
	xorl	%eax, %eax
	leaq	-1696(%rbp), %rbx
	leaq	.LC53(%rip), %r12
	movl	$256, %r13d
	jmp	.L242
.L406:
	movslq	%r15d, %rax
	addq	$1, %r14
	cmpl	$255, %r15d
	jg	.L241
.L242:
	testq	%r14, %r14
	leaq	.LC52(%rip), %rcx
	movq	%r13, %rsi
	cmove	%r12, %rcx
	leaq	(%rbx,%rax), %rdi
	subq	%rax, %rsi
	movq	-2112(%rbp), %rax
	leaq	.LC85(%rip), %rdx
	movl	(%rax,%r14,4), %r8d
	xorl	%eax, %eax
	call	snprintf@PLT
	addl	%eax, %r15d
	leal	1(%r14), %eax
	cmpl	%eax, 8+ks_problem(%rip)
	jg	.L406
.L241:
	movq	%rbx, %rdx
	leaq	.LC86(%rip), %rsi
	movl	$1, %edi
	xorl	%eax, %eax
	call	die
.L380:
	leaq	.LC85(%rip), %rax
	xorl	%r15d, %r15d
	xorl	%ebx, %ebx
	xorl	%edi, %edi
	movb	$0, -1424(%rbp)
	leaq	-1424(%rbp), %r14
	leaq	.LC53(%rip), %r12
	movq	%rax, -2104(%rbp)
	jmp	.L227
.L407:
	movslq	%ebx, %rdi
	addq	$1, %r15
	cmpl	$255, %ebx
	jg	.L226
.L227:
	testq	%r15, %r15
	leaq	.LC52(%rip), %rcx
	movl	0(%r13,%r15,4), %r8d
	movq	-2104(%rbp), %rdx
	cmove	%r12, %rcx
	movl	$256, %esi
	xorl	%eax, %eax
	subq	%rdi, %rsi
	addq	%r14, %rdi
	call	snprintf@PLT
	addl	%eax, %ebx
	leal	1(%r15), %eax
	cmpl	%eax, 8+ks_problem(%rip)
	jg	.L407
.L226:
	movq	%r14, %rdx
	leaq	.LC86(%rip), %rsi
	movl	$1, %edi
	xorl	%eax, %eax
	call	die
.L378:
	movl	-2160(%rbp), %edx
	leaq	.LC83(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L376:
	leaq	.LC81(%rip), %rsi
	movl	$2, %edi
	xorl	%eax, %eax
	call	die
.L261:
	movq	-56(%rbp), %rax
	movq	-2112(%rbp), %rcx
	vxorpd	%xmm1, %xmm1, %xmm1
	xorl	%r14d, %r14d
	imulq	$56, %rax, %r13
	addq	$1, %rax
	addq	-72(%rbp), %r13
	movq	%rcx, 0(%r13)
	movq	%rax, -56(%rbp)
.L262:
	vaddsd	(%r12,%r14,8), %xmm1, %xmm1
	movq	%r14, %rdx
	addq	$1, %r14
	cmpq	%r14, -2208(%rbp)
	jne	.L262
	vxorpd	%xmm6, %xmm6, %xmm6
	vxorpd	%xmm0, %xmm0, %xmm0
	xorl	%eax, %eax
	vcvtsi2sdq	%r14, %xmm6, %xmm3
	vdivsd	%xmm3, %xmm1, %xmm1
	vmovsd	%xmm1, 8(%r13)
.L263:
	vmovsd	(%r12,%rax,8), %xmm2
	movq	%rax, %rcx
	addq	$1, %rax
	vsubsd	%xmm1, %xmm2, %xmm2
	vmulsd	%xmm2, %xmm2, %xmm2
	vaddsd	%xmm2, %xmm0, %xmm0
	cmpq	%rcx, %rdx
	jne	.L263
	movq	%r14, %r15
	leaq	-8(%r12,%r14,8), %rbx
	sarq	%r15
	salq	$3, %r15
	leaq	(%r12,%r15), %rax
	movq	%rax, -2104(%rbp)
	cmpq	$1, %r14
	jne	.L408
	movq	.LC42(%rip), %rax
	leaq	cmp_double(%rip), %rcx
	movl	$8, %edx
	movq	%r12, %rdi
	movl	$1, %esi
	movq	%rax, 40(%r13)
	call	qsort@PLT
	vmovsd	(%r12), %xmm0
	vmovsd	%xmm0, 24(%r13)
	vmovsd	(%rbx), %xmm0
	vmovsd	%xmm0, 32(%r13)
.L308:
	movq	-2104(%rbp), %rax
	vmovsd	(%rax), %xmm0
.L266:
	movq	%r14, 48(%r13)
	movq	%r12, %rdi
	vmovsd	%xmm0, 16(%r13)
	call	free@PLT
	movl	$1, %eax
	jmp	.L248
.L405:
	movb	$0, -1952(%rbp)
	xorl	%r15d, %r15d
	xorl	%r12d, %r12d
	xorl	%eax, %eax
	leaq	.LC52(%rip), %r14
	movl	$256, %r13d
.L260:
	movq	-2152(%rbp), %rdx
	testq	%r15, %r15
	movq	%rbx, %rcx
	movq	%r13, %rsi
	cmovne	%r14, %rcx
	subq	%rax, %rsi
	leaq	(%rdx,%rax), %rdi
	movq	-2256(%rbp), %rax
	leaq	.LC85(%rip), %rdx
	movl	(%rax,%r15,4), %r8d
	xorl	%eax, %eax
	call	snprintf@PLT
	addl	%eax, %r12d
	leal	1(%r15), %eax
	cmpl	%eax, 8+ks_problem(%rip)
	jle	.L259
	movslq	%r12d, %rax
	addq	$1, %r15
	cmpl	$255, %r12d
	jle	.L260
.L259:
	movq	-2152(%rbp), %rdx
	leaq	.LC86(%rip), %rsi
	movl	$1, %edi
	xorl	%eax, %eax
	call	die
.L408:
	vxorpd	%xmm7, %xmm7, %xmm7
	vcvtsi2sdq	%rdx, %xmm7, %xmm1
	vdivsd	%xmm1, %xmm0, %xmm0
	vdivsd	%xmm3, %xmm0, %xmm0
	call	sqrt@PLT
	movl	$8, %edx
	movq	%r14, %rsi
	movq	%r12, %rdi
	vmovsd	%xmm0, 40(%r13)
	leaq	cmp_double(%rip), %rcx
	call	qsort@PLT
	vmovsd	(%r12), %xmm0
	vmovsd	%xmm0, 24(%r13)
	vmovsd	(%rbx), %xmm0
	vmovsd	%xmm0, 32(%r13)
	testb	$1, %r14b
	jne	.L308
	movq	-2104(%rbp), %rax
	vmovsd	-8(%r12,%r15), %xmm0
	vaddsd	(%rax), %xmm0, %xmm0
	vmulsd	.LC91(%rip), %xmm0, %xmm0
	jmp	.L266
	.cfi_endproc
.LFE47:
	.size	main, .-main
	.globl	ks_host_timer
	.section	.rodata.str1.8
	.align 8
.LC118:
	.string	"host CLOCK_MONOTONIC around each call; time_us = mean of the timed runs after warm-up, repeated until the standard error is under 0.5% of the mean or the time cap"
	.section	.data.rel.ro.local,"aw"
	.align 16
	.type	ks_host_timer, @object
	.size	ks_host_timer, 16
ks_host_timer:
	.quad	.LC118
	.quad	host_time_call
	.section	.rodata
	.align 64
.LC0:
	.quad	0
	.quad	1
	.quad	2
	.quad	3
	.quad	4
	.quad	5
	.quad	6
	.quad	7
	.set	.LC8,.LC0
	.set	.LC11,.LC0+32
	.section	.rodata.cst8,"aM",@progbits,8
	.align 8
.LC15:
	.long	-400107883
	.long	1041313291
	.section	.rodata.cst16,"aM",@progbits,16
	.align 16
.LC20:
	.long	-1
	.long	2147483647
	.long	0
	.long	0
	.section	.rodata.cst8
	.align 8
.LC28:
	.long	-1
	.long	2146435071
	.section	.rodata
	.align 64
.LC32:
	.quad	0
	.quad	-7046029254386353131
	.quad	4354685564936845354
	.quad	-2691343689449507777
	.quad	8709371129873690708
	.quad	1663341875487337577
	.quad	-5382687378899015554
	.quad	6018027440424182931
	.section	.rodata.cst4,"aM",@progbits,4
	.align 4
.LC36:
	.long	864026624
	.section	.rodata.cst32,"aM",@progbits,32
	.align 32
.LC37:
	.quad	-7046029254386353131
	.quad	4354685564936845354
	.quad	-2691343689449507777
	.quad	8709371129873690708
	.align 32
.LC38:
	.quad	1663341875487337577
	.quad	-5382687378899015554
	.quad	6018027440424182931
	.quad	-1028001813962170200
	.section	.rodata.cst8
	.align 8
.LC40:
	.long	0
	.long	-1074790400
	.align 8
.LC41:
	.long	0
	.long	2146435072
	.align 8
.LC42:
	.long	0
	.long	2146959360
	.section	.rodata.cst16
	.align 16
.LC60:
	.long	-350469331
	.long	1058682594
	.long	-755914244
	.long	1062232653
	.section	.rodata.cst8
	.align 8
.LC61:
	.long	0
	.long	1073741824
	.align 8
.LC87:
	.long	-1717986918
	.long	1068079513
	.align 8
.LC89:
	.long	1202590843
	.long	1064598241
	.align 8
.LC91:
	.long	0
	.long	1071644672
	.align 8
.LC105:
	.long	0
	.long	1093567616
	.section	.rodata.cst16
	.align 16
.LC116:
	.quad	9007199254740991
	.quad	0
	.align 16
.LC117:
	.quad	1
	.quad	0
	.ident	"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0"
	.section	.note.GNU-stack,"",@progbits

# check-vector-exits.py's own test (the vector_exits_catches_dirty test): vector code that ends in
# a jump to code without vector instructions, its ymm registers' upper halves still in use, as
# g++ 12 built ringAvx2's tail jump to the scalar loop. The check must name it.
        .text
scalar_tail:
        addsd   %xmm1, %xmm0
        ret
        .globl  vector_then_scalar
vector_then_scalar:
        vaddpd  %ymm1, %ymm0, %ymm0
        jmp     scalar_tail
        .globl  vector_cleared
vector_cleared:
        vaddpd  %ymm1, %ymm0, %ymm0
        vzeroupper
        jmp     scalar_tail
        .section .note.GNU-stack,"",@progbits

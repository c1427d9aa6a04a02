!!ARBfp1.0
# expect: 3:17: error: result.color[1]: result.color[n] needs OPTION ARB_draw_buffers [ST2004]
MOV result.color[1], fragment.color;
END

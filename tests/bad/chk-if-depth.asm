; expect: 27:1: error: if blocks nested 25 deep; vs_2_x allows 24 [ST2014]
vs_2_x
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif

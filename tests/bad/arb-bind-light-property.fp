!!ARBfp1.0
# expect: 3:25: error: state.light[0].color: expected ambient, diffuse, specular, position, attenuation, spot.direction or half [ST2101]
PARAM p = state.light[0].color;
END

"""Between Two Cities: the codes the engine and the scoring share (``shared/reference/between_two_cities.md``).

A *kind* is what one square of a city holds (a single tile or one half of a duplex): ``EMPTY``, one of the
nine base kinds (the four taverns are separate kinds, §2), one of the 21 civic buildings of the Capitals
expansion (``CIVIC0 + k``, §8.4) or ``TERRAIN`` (a landscape mat's unbuildable square, §8.3).
A *type* is what the scoring rules count (§5): shop, factory, tavern (all kinds), office, park, house,
civic.
"""

EMPTY = 0
SHOP, FACTORY, TAVERN_MUSIC, TAVERN_FOOD, TAVERN_DRINK, TAVERN_BED, OFFICE, PARK, HOUSE = range(1, 10)
TAVERNS = (TAVERN_MUSIC, TAVERN_FOOD, TAVERN_DRINK, TAVERN_BED)
#: the first civic building's kind; civic ``k`` (0-20) is ``CIVIC0 + k``
CIVIC0 = 10
NUM_CIVICS = 21
#: a landscape mat's terrain square (never built on)
TERRAIN = CIVIC0 + NUM_CIVICS          # 31
NUM_KINDS = TERRAIN + 1                 # kinds are 0 .. 31

#: scoring types (index into TYPE_NAMES)
T_NONE, T_SHOP, T_FACTORY, T_TAVERN, T_OFFICE, T_PARK, T_HOUSE, T_CIVIC, T_TERRAIN = range(9)
TYPE_NAMES = ("none", "shop", "factory", "tavern", "office", "park", "house", "civic", "terrain")
#: the six base types in the reference card's order (the second tie-break, §5)
BASE_TYPES = (T_SHOP, T_FACTORY, T_TAVERN, T_OFFICE, T_PARK, T_HOUSE)

#: TYPE_OF[kind] -> scoring type
TYPE_OF = ((T_NONE, T_SHOP, T_FACTORY, T_TAVERN, T_TAVERN, T_TAVERN, T_TAVERN, T_OFFICE, T_PARK, T_HOUSE)
           + (T_CIVIC,) * NUM_CIVICS + (T_TERRAIN,))

#: one short code per kind, as the reference sheet writes cities (§6): S F Tm Tf Td Tb O P H, C0..C20, '#'
KIND_CODES = (("." , "S", "F", "Tm", "Tf", "Td", "Tb", "O", "P", "H")
              + tuple(f"C{k}" for k in range(NUM_CIVICS)) + ("#",))
#: the kinds' names for the log and the views
KIND_NAMES = (("empty", "shop", "factory", "tavern (music)", "tavern (food)", "tavern (drink)", "tavern (bed)",
               "office", "park", "house") + tuple(f"civic building {k}" for k in range(NUM_CIVICS)) + ("terrain",))

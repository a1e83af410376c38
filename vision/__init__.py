"""vision: camera frames -> calibrated table -> card sightings -> stable snapshots.

Knows nothing of games: it reports which card is where (image pixels, and mat
millimetres when the playmat is seen) and how sure it is.  See docs/vision.md.
Never imports engines, devices or companion.
"""

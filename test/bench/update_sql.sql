\set lo random(1, 99990)
UPDATE bench SET qty = :lo % 100 WHERE id BETWEEN :lo AND :lo + 9;

"""The player register and a tournament's field: registering quickly without duplicating anyone,
pasted lists and namesakes (:mod:`.register`), importing players from a CSV file or a workbook
(:mod:`.importer`, its page :mod:`.views`) and the register's tables (:mod:`.tables`)."""

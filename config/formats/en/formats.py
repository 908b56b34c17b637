"""English formats on the clock the tournaments run on: the 24-hour time of Austria and Slovenia
("14:02", not "2:02 p.m.", whose full stop doubled a sentence's own); dates as Django's English."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"

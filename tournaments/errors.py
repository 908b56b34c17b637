"""The shape every refused tournament command shares: an exception whose ``message`` says why in
words a director understands (translated), for a page or a management command to show as it is."""


class Refused(Exception):
    """A command that changed nothing; ``message`` says why."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))

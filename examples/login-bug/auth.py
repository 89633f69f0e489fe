import re

# Passwords may hold any printable character, but this pattern only lets letters and digits in:
# a user whose password has a "!" or "@" can never log in.
ALLOWED_CHARACTERS = re.compile(r"^[A-Za-z0-9]+$")


def login(user, password, users):
    if not ALLOWED_CHARACTERS.match(password):
        return False
    return users.get(user) == password

import os
import psycopg


def connect():
    return psycopg.connect(
        host=os.environ["DB_HOST"],
        user=os.environ.get("DB_USER", "app"),
        password=os.environ["DB_PASSWORD"],
    )


def prompt_password():
    from getpass import getpass

    password = getpass()
    password_confirm = getpass("Password (again): ")
    if password != password_confirm:
        raise SystemExit("Password:\n the two entries differ")
    return password

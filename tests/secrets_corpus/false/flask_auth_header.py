from flask import Flask, abort, request

app = Flask(__name__)


@app.before_request
def check_token():
    token = request.headers.get("Authorization")
    if not token or not token.startswith("Bearer "):
        abort(401)
    api_key = request.args.get("api_key") or request.headers.get("X-Api-Key")
    secret = current_app.config["SECRET_KEY"]
    access_token = token.removeprefix("Bearer ")
    session_token = session.get("token")

"""Drives `healthport mcp` with the official Python MCP SDK (a client no one here wrote).

Usage: check_client.py HEALTHPORT STORE POLICY MANIFEST

The policy grants reading StepCount, Workout and BodyTemperature (which has no data) and
denies HeartRate (which has thousands of samples). The script lists the tools, calls each,
answers elicitations (accept some types, decline, cancel), checks the policy file after each,
and checks that the denied type leaks nothing through any tool. Exits non-zero on the first
failed check.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
try:
    from mcp.shared.exceptions import MCPError
except ImportError:  # mcp 1.x
    from mcp.shared.exceptions import McpError as MCPError

HEALTHPORT, STORE, POLICY, MANIFEST = sys.argv[1:5]
HEART_RATE = "HKQuantityTypeIdentifierHeartRate"
STEPS = "HKQuantityTypeIdentifierStepCount"

checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        print(f"FAILED: {what}", file=sys.stderr)
        sys.exit(1)


def policy_bytes():
    try:
        with open(POLICY, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def policy():
    return json.loads(policy_bytes())


class Person:
    """Answers the forms the server sends, from a queue of decisions."""

    def __init__(self):
        self.answers = []  # each: ("accept", predicate(key) -> bool) | ("decline",) | ("cancel",)
        self.forms = []

    async def __call__(self, context, params):
        self.forms.append(params)
        check(params.mode == "form", "elicitations are forms")
        action = self.answers.pop(0)
        if action[0] == "accept":
            keys = params.requested_schema["properties"].keys()
            return types.ElicitResult(action="accept", content={key: action[1](key) for key in keys})
        return types.ElicitResult(action=action[0])


async def call(session, name, arguments=None):
    """A tool's text answer and whether it is an error."""
    result = await session.call_tool(name, arguments or {})
    text = result.content[0].text if result.content else ""
    return text, bool(result.is_error)


async def answer(session, name, arguments=None):
    text, is_error = await call(session, name, arguments)
    check(not is_error, f"{name} {arguments} answers: {text[:300]}")
    return json.loads(text)


def server():
    return StdioServerParameters(command=HEALTHPORT, args=["mcp", "--store", STORE, "--policy", POLICY])


async def main():
    with open(MANIFEST) as f:
        by_type = json.load(f)["objectsByType"]
    person = Person()
    seen = []  # every answer, for the leak check

    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write, elicitation_callback=person) as session:
            init = await session.initialize()
            check(init.server_info.name == "healthport", "the server names itself")

            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            check(set(tools) == {
                "describe", "query_samples", "statistics", "sleep_nights", "days", "changes", "authorization_status", "request_status",
                "request_authorization", "request_per_object_authorization",
            }, f"the tools: {sorted(tools)}")
            for tool in tools.values():
                check(tool.input_schema.get("type") == "object" and len(tool.description or "") > 40, f"{tool.name} is described")

            # describe: the visible types only.
            described = await answer(session, "describe")
            seen.append(json.dumps(described))
            visible = {entry["type"]: entry["count"] for entry in described["types"]}
            check(visible.get(STEPS) == by_type[STEPS], f"describe counts the steps: {visible}")
            check(HEART_RATE not in visible, "describe hides the denied heart rates")
            check(set(visible) <= {STEPS, "HKWorkoutTypeIdentifier"}, f"describe shows only granted types: {sorted(visible)}")

            # query_samples, paged.
            uuids, cursor, pages = [], None, 0
            while True:
                arguments = {"types": ["StepCount"], "pageSize": 100, "sort": ["startDate"]}
                if cursor:
                    arguments["cursor"] = cursor
                page = await answer(session, "query_samples", arguments)
                seen.append(json.dumps(page))
                uuids += [obj["uuid"] for obj in page["objects"]]
                pages += 1
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            check(len(uuids) == by_type[STEPS] and len(set(uuids)) == len(uuids), f"every step sample once ({len(uuids)})")
            check(pages == (by_type[STEPS] + 99) // 100, f"pages of 100 ({pages})")
            workouts = await answer(session, "query_samples", {"types": ["Workout"], "pageSize": 1000})
            seen.append(json.dumps(workouts))
            check(workouts["count"] == by_type["HKWorkoutTypeIdentifier"], "the workouts")

            # statistics and changes.
            stats = await answer(session, "statistics", {"type": "StepCount", "interval": "day", "timeZone": "UTC"})
            seen.append(json.dumps(stats))
            check(len(stats["intervals"]) > 0 and all("sum" in row for row in stats["intervals"]), "daily step sums")
            # sleep_nights through the same client: sleep is undecided in this policy, so the
            # answer is HealthKit's not-determined error, as for any tool reading it.
            text, is_error = await call(session, "sleep_nights", {"timeZone": "UTC"})
            check(is_error and "errorAuthorizationNotDetermined" in text, f"sleep_nights on undecided sleep: {text}")
            # days: one row per UTC day; only the granted types have columns (steps, workouts), and
            # each day's steps are the statistics' daily sum (both merge sources the same way).
            days = await answer(session, "days", {"timeZone": "UTC", "pageSize": 1000})
            seen.append(json.dumps(days))
            check(set(days["columns"]) <= {"date", "weekday", "steps", "workouts", "workout_min"} and "steps" in days["columns"],
                  f"days has only the granted types' columns: {days['columns']}")
            daily_sums = {row["startDate"][:10]: row["sum"] for row in stats["intervals"]}
            day_steps = {row["date"]: row["steps"] for row in days["days"] if row.get("steps") is not None}
            check(day_steps.keys() == daily_sums.keys()
                  and all(abs(day_steps[d] - daily_sums[d]) < 1e-6 for d in day_steps),
                  f"days' steps are the statistics' daily sums ({len(day_steps)} days)")
            added, anchor = 0, 0
            for _ in range(50):
                batch = await answer(session, "changes", {"anchor": anchor, "limit": 500})
                seen.append(json.dumps(batch))
                added += len(batch["added"])
                anchor = batch["newAnchor"]
                if batch["complete"]:
                    break
            check(added == by_type[STEPS] + by_type["HKWorkoutTypeIdentifier"], f"changes: the granted objects ({added})")

            # A denied type answers exactly as a granted type without data, in every tool.
            for tool, denied, empty in [
                ("query_samples", {"types": ["HeartRate"]}, {"types": ["BodyTemperature"]}),
                ("changes", {"types": ["HeartRate"]}, {"types": ["BodyTemperature"]}),
                ("describe", {"types": ["HeartRate"]}, {"types": ["BodyTemperature"]}),
                ("statistics", {"type": "HeartRate", "timeZone": "UTC"}, {"type": "BodyTemperature", "timeZone": "UTC"}),
            ]:
                a, b = await call(session, tool, denied), await call(session, tool, empty)
                if tool == "statistics":
                    # The unit is the type's own (count/min, degC); the rows are what must match.
                    a = (json.loads(a[0])["intervals"], a[1])
                    b = (json.loads(b[0])["intervals"], b[1])
                check(a == b, f"{tool}: denied {a} vs empty {b}")
            for text in seen:
                check(HEART_RATE not in text and "count/min" not in text, "no heart rate in any answer")

            # Status tools.
            statuses = (await answer(session, "authorization_status", {"types": ["StepCount", "HeartRate"]}))["statuses"]
            check(statuses == {STEPS: "notDetermined", HEART_RATE: "notDetermined"}, f"share statuses only: {statuses}")
            check((await answer(session, "request_status", {"read": ["HeartRate"]}))["status"] == "unnecessary", "decided")
            check((await answer(session, "request_status", {"read": ["BodyMass"]}))["status"] == "shouldRequest", "undecided")
            text, is_error = await call(session, "query_samples", {"types": ["BodyMass"]})
            check(is_error and "errorAuthorizationNotDetermined" in text, f"an undecided type is not determined: {text}")

            # Bad input: tool errors, never a crash.
            for arguments in [{"types": ["StepCount"], "pageSize": 10**9}, {"types": ["StepCont"]},
                              {"types": ["StepCount"], "predicate": "quantity >> 1"}, {"types": ["StepCount"], "x": 1}]:
                text, is_error = await call(session, "query_samples", arguments)
                check(is_error and text, f"bad arguments are a tool error: {arguments}")
            try:
                result = await session.call_tool("drop_tables", {})
                check(result.is_error, "an unknown tool is an error")
            except MCPError:
                pass

            # request_authorization: accept some types.
            person.answers.append(("accept", lambda key: key in ("read_BodyMass", "share_BodyMass")))
            done = await answer(session, "request_authorization", {"read": ["BodyMass", "SleepAnalysis", "StepCount"], "share": ["BodyMass"]})
            check(done == {"success": True}, f"success says nothing of the answers: {done}")
            form = person.forms[-1]
            check(sorted(form.requested_schema["properties"]) == ["read_BodyMass", "read_SleepAnalysis", "share_BodyMass"],
                  f"only undecided types are asked: {sorted(form.requested_schema['properties'])}")
            written = policy()
            check(written["read"].get("HKQuantityTypeIdentifierBodyMass") == "granted", "BodyMass granted")
            check(written["read"].get("HKCategoryTypeIdentifierSleepAnalysis") == "denied", "SleepAnalysis denied")
            check(written["share"].get("HKQuantityTypeIdentifierBodyMass") == "sharingAuthorized", "BodyMass shared")
            body_mass = await answer(session, "query_samples", {"types": ["BodyMass"]})
            check(body_mass["count"] == by_type["HKQuantityTypeIdentifierBodyMass"], "the policy is read again: BodyMass visible")
            sleep = await answer(session, "query_samples", {"types": ["SleepAnalysis"]})
            check(sleep["count"] == 0, "SleepAnalysis denied looks empty")

            # Decline: every type asked is denied.
            person.answers.append(("decline",))
            await answer(session, "request_authorization", {"read": ["OxygenSaturation", "VO2Max"]})
            written = policy()
            check(written["read"].get("HKQuantityTypeIdentifierOxygenSaturation") == "denied"
                  and written["read"].get("HKQuantityTypeIdentifierVO2Max") == "denied", "decline denies")

            # Cancel: errorUserCanceled, the policy file untouched.
            before = policy_bytes()
            person.answers.append(("cancel",))
            text, is_error = await call(session, "request_authorization", {"read": ["ActiveEnergyBurned"]})
            check(is_error and "errorUserCanceled" in text, f"cancel is errorUserCanceled: {text}")
            check(policy_bytes() == before, "cancel writes nothing")

            # Asking again for decided types shows no form and writes nothing.
            forms, before = len(person.forms), policy_bytes()
            await answer(session, "request_authorization", {"read": ["BodyMass"]})
            check(len(person.forms) == forms and policy_bytes() == before, "decided types: no form, no write")

            # Per-object: the prescriptions, one switch each, every time.
            prescriptions = by_type.get("HKVisionPrescriptionTypeIdentifier", 0)
            person.answers.append(("accept", lambda key: True))
            offered = await answer(session, "request_per_object_authorization", {"type": "VisionPrescription"})
            check(offered == {"success": True}, f"the answer does not say how many exist: {offered}")
            check(len(person.forms[-1].requested_schema["properties"]) == prescriptions, "every prescription offered")
            visible = await answer(session, "query_samples", {"types": ["VisionPrescription"]})
            check(visible["count"] == prescriptions, "the prescriptions allowed are visible")
            person.answers.append(("accept", lambda key: False))
            await answer(session, "request_per_object_authorization", {})
            check((await answer(session, "query_samples", {"types": ["VisionPrescription"]}))["count"] == 0, "revoked")
            check(len(policy()["perObject"]["HKVisionPrescriptionTypeIdentifier"]["revokedOwn"]) == prescriptions, "revoked in the file")

    # A client without elicitation: HealthKit's error and the terminal command, nothing written.
    before = policy_bytes()
    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            text, is_error = await call(session, "request_authorization", {"read": ["Headache"]})
            check(is_error and "errorAuthorizationNotDetermined" in text and "healthport auth request" in text,
                  f"no elicitation: {text}")
            check(policy_bytes() == before, "no elicitation writes nothing")
            described = await answer(session, "describe")
            check(HEART_RATE not in json.dumps(described), "still no heart rate")

    print(f"ok: {checks} checks with the official Python MCP SDK")


asyncio.run(main())

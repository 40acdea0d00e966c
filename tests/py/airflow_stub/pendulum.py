"""A stand-in for pendulum, which Airflow installs: only pendulum.datetime(..., tz=NAME).

The zone comes from zoneinfo, so a misspelt IANA name fails here as it would in pendulum.
"""
import datetime as _datetime
import zoneinfo


def datetime(year, month, day, hour=0, minute=0, second=0, tz="UTC"):
    zone = zoneinfo.ZoneInfo(tz)
    return _datetime.datetime(year, month, day, hour, minute, second, tzinfo=zone)

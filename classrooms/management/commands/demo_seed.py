"""Demo data for ``make run``: one admin, one teacher with a class, four students.

Idempotent: run it again and it resets the demo passwords and membership, nothing doubles.
THE PASSWORDS ARE FIXED DEMO PASSWORDS: never run this against a real deployment.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from classrooms import services
from classrooms.models import Classroom, Membership

ADMIN = ("admin", "demo-admin", "Demo Admin")
TEACHER = ("teacher", "demo-teacher", "Ms Demo")
STUDENTS = [
    ("ana", "demo-ana", "Ana María López"),
    ("ben", "demo-ben", "Ben O'Neill"),
    ("chloe", "demo-chloe", "Chloé Dubois"),
    ("dev", "demo-dev", "Dev Patel"),
]
CLASS_NAME = "Demo class 7B"
JOIN_CODE = "DEMO7B"


class Command(BaseCommand):
    help = "Create (or reset) the demo admin, teacher, class and four students; print logins."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()

        def account(username, password, name, **flags):
            user, _ = User.objects.get_or_create(username=username)
            user.first_name = name
            user.is_active = True
            for key, value in flags.items():
                setattr(user, key, value)
            user.set_password(password)
            user.save()
            return user

        account(*ADMIN, is_staff=True, is_superuser=True)
        teacher = services.teacher_make(user=account(*TEACHER))
        classroom = Classroom.objects.filter(teacher=teacher, name=CLASS_NAME).first()
        if classroom is None:
            code = JOIN_CODE if not Classroom.objects.filter(join_code=JOIN_CODE).exists() \
                else services.join_code_generate()
            classroom = Classroom.objects.create(teacher=teacher, name=CLASS_NAME, join_code=code)
        for username, password, name in STUDENTS:
            student = account(username, password, name)
            Membership.objects.get_or_create(classroom=classroom, student=student)

        self.stdout.write("Demo logins (demo passwords only - never use them in production):")
        self.stdout.write(f"  admin    {ADMIN[0]:<8} / {ADMIN[1]}")
        self.stdout.write(f"  teacher  {TEACHER[0]:<8} / {TEACHER[1]}   class '{CLASS_NAME}', "
                          f"join code {classroom.join_code}")
        for username, password, name in STUDENTS:
            self.stdout.write(f"  student  {username:<8} / {password}   ({name})")
